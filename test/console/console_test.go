package console_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/cmem/cmem/node/nodetest"
	"github.com/cmem/cmem/test/console/consoletest"
)

// TestConsoleAdmin signs in as the admin and checks that every page renders
// the seeded workload, and that the time slider changes the graph.
func TestConsoleAdmin(t *testing.T) {
	ctx := browser(t)
	c, w := seeded(t)
	signIn(t, ctx, c.Base, nodetest.AdminToken, "admin")

	// Access graph: now, Bob's private agent is there and Alice's critic is
	// revoked; before the revoke it was there; at revision 0 nothing was.
	for _, e := range []string{"user:bob>agent:" + consoletest.BobAgent, "user:alice>agent:planner", "agent:planner>resource:guide"} {
		if !has(t, ctx, fmt.Sprintf(`[data-edge=%q]`, e)) {
			t.Fatalf("graph now lacks %s", e)
		}
	}
	if !has(t, ctx, `path.expiring[data-edge="user:bob>agent:planner"][data-expires]`) {
		t.Fatal("graph does not mark bob → planner, a grant with an expiry")
	}
	if has(t, ctx, `path.expiring[data-edge="user:alice>agent:planner"]`) {
		t.Fatal("graph marks a permanent grant as expiring")
	}
	critic := `[data-edge="user:alice>agent:critic"]`
	if has(t, ctx, critic) {
		t.Fatal("graph now shows the revoked edge alice → critic")
	}
	edgesNow := eval[string](t, ctx, `document.getElementById("graph-svg").dataset.edges`)
	slide(t, ctx, w.BeforeRevoke)
	if !has(t, ctx, critic) {
		t.Fatalf("graph at revision %d lacks alice → critic", w.BeforeRevoke)
	}
	if got := eval[string](t, ctx, `document.getElementById("graph-svg").dataset.edges`); got == edgesNow {
		t.Fatalf("the slider did not change the graph: %s edges both", got)
	}
	if !has(t, ctx, fmt.Sprintf(`tr.future[data-revision="%d"]`, w.RevokeRevision)) {
		t.Fatal("the revoke is not marked as after the shown revision")
	}
	slide(t, ctx, 0)
	if n := eval[string](t, ctx, `document.getElementById("graph-svg").dataset.edges`); n != "0" {
		t.Fatalf("graph at revision 0 has %s edges", n)
	}
	slide(t, ctx, w.RevokeRevision)
	slide(t, ctx, w.BeforeRevoke) // the screenshot: the revoke highlighted as the step after
	shot(t, ctx, "graph")

	// Access matrix: granted cells, usage counts from the queries.
	open(t, ctx, "#/matrix")
	if !has(t, ctx, `#matrix-ua [data-cell="bob|`+consoletest.BobAgent+`"].granted`) || !has(t, ctx, `#matrix-ua [data-cell="alice|`+consoletest.BobAgent+`"].denied`) {
		t.Fatal("matrix cells are not marked by grant")
	}
	for _, q := range []struct{ user, id string }{{"alice", w.AliceQuery}, {"bob", w.BobQuery}} {
		steps := c.Must(http.StatusOK, "GET", "/v1/queries/"+q.id, nodetest.AdminToken, nil).Body["steps"].([]any)
		if len(steps) == 0 {
			t.Fatalf("query %s has no steps", q.id)
		}
		agent := steps[0].(map[string]any)["agent"].(string)
		if n := eval[string](t, ctx, fmt.Sprintf(`document.querySelector('#matrix-ua [data-cell="%s|%s"]').dataset.count`, q.user, agent)); n == "0" {
			t.Fatalf("matrix shows no use of %s by %s", agent, q.user)
		}
	}
	shot(t, ctx, "matrix")

	// Queries: every user's, with steps.
	open(t, ctx, "#/queries")
	for _, id := range []string{w.AliceQuery, w.BobQuery} {
		if !has(t, ctx, fmt.Sprintf(`article[data-query=%q] .step`, id)) {
			t.Fatalf("queries page lacks %s with its steps: %s", id, eval[string](t, ctx, `document.getElementById("main").innerHTML`))
		}
		// The outcome the API gives the query is shown on its card.
		want := c.Must(http.StatusOK, "GET", "/v1/queries/"+id, nodetest.AdminToken, nil).Body["outcome"].(string)
		if !has(t, ctx, fmt.Sprintf(`article[data-query=%q] .outcome[data-outcome=%q]`, id, want)) {
			t.Fatalf("queries page does not show %s's outcome %q", id, want)
		}
	}
	shot(t, ctx, "queries")

	// Memory, as the admin: who read Alice's private fragment, when.
	open(t, ctx, "#/memory?fragment="+w.AlicePrivate)
	until(t, ctx, `document.querySelector("#audit-reads table") !== null`)
	if txt := eval[string](t, ctx, `document.getElementById("audit-reads").textContent`); !strings.Contains(txt, "alice") || !strings.Contains(txt, "admissible") {
		t.Fatalf("audit reads: %s", txt)
	}
	shot(t, ctx, "memory-audit")

	// Live: the backlog, then an event written while the page is open.
	open(t, ctx, "#/live")
	until(t, ctx, `document.querySelectorAll("#live-rows tr").length > 0`)
	rev := c.Must(http.StatusOK, "PUT", "/v1/grants/user-agent/alice/critic", nodetest.AdminToken, nil).Revision()
	until(t, ctx, fmt.Sprintf(`document.querySelector('#live-rows tr[data-revision="%d"]') !== null`, rev))
	if !strings.Contains(html(t, ctx), w.BobQuery) {
		t.Fatal("the admin's live page lacks bob's query")
	}
	shot(t, ctx, "live")
}

// TestConsoleUserSeesOnlyItsOwn signs in as Alice and checks, on every
// page, that nothing of Bob's private memory, agent, resource or queries
// appears, while her own data does.
func TestConsoleUserSeesOnlyItsOwn(t *testing.T) {
	ctx := browser(t)
	c, w := seeded(t)
	signIn(t, ctx, c.Base, w.Alice, "alice")
	leaks := []string{consoletest.BobPrivateValue, consoletest.BobSharedValue, consoletest.BobAgent, consoletest.BobResource,
		w.BobQuery, w.BobPrivate, w.BobShared, `data-node="user:bob"`}
	noLeak := func(page string) {
		t.Helper()
		doc := html(t, ctx)
		for _, l := range leaks {
			if strings.Contains(doc, l) {
				t.Fatalf("alice's %s page shows %q", page, l)
			}
		}
	}

	noLeak("graph")
	slide(t, ctx, w.BeforeRevoke)
	if !has(t, ctx, `[data-edge="user:alice>agent:critic"]`) {
		t.Fatal("alice's graph before the revoke lacks critic")
	}
	slide(t, ctx, w.RevokeRevision)
	if has(t, ctx, `[data-edge="user:alice>agent:critic"]`) {
		t.Fatal("alice's graph after the revoke still shows critic")
	}
	noLeak("graph (history)")

	open(t, ctx, "#/matrix")
	noLeak("matrix")

	open(t, ctx, "#/memory")
	until(t, ctx, `document.querySelector("#memory-private") !== null`)
	doc := html(t, ctx)
	for _, want := range []string{consoletest.AlicePrivateValue, consoletest.AliceSharedValue, `data-fragment="` + w.AliceDerived + `"`,
		`data-fragment-link="` + w.AliceShared + `"`} {
		if !strings.Contains(doc, want) {
			t.Fatalf("alice's memory page lacks %q: %s", want, eval[string](t, ctx, `document.getElementById("main").innerText`))
		}
	}
	noLeak("memory")
	shot(t, ctx, "memory")
	// A click on a fragment: the versions of its fact she may read, and
	// nothing of Bob's.
	eval[bool](t, ctx, `(document.querySelector("#memory-shared tr[data-fragment]").click(), true)`)
	until(t, ctx, `document.querySelector("#memory-history-table tbody tr") !== null`)
	noLeak("memory history")

	open(t, ctx, "#/queries")
	if !has(t, ctx, fmt.Sprintf(`article[data-query=%q]`, w.AliceQuery)) {
		t.Fatal("alice's queries page lacks her query")
	}
	noLeak("queries")

	// Live: Bob asks while Alice watches; then Alice gets a grant (the
	// marker). Her page shows the marker and nothing of Bob's.
	open(t, ctx, "#/live")
	bobLive := c.Must(http.StatusOK, "POST", "/v1/queries", w.Bob, map[string]any{"text": "salaries again please"}).Body["id"].(string)
	rev := c.Must(http.StatusOK, "PUT", "/v1/grants/user-agent/alice/critic", nodetest.AdminToken, nil).Revision()
	until(t, ctx, fmt.Sprintf(`document.querySelector('#live-rows tr[data-revision="%d"]') !== null`, rev))
	leaks = append(leaks, bobLive)
	noLeak("live")
}
