package gateway_test

import (
	"bytes"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/cmem/cmem/node/nodetest"
	"github.com/cmem/cmem/test/console/consoletest"
)

func TestMeAndAccessGraph(t *testing.T) {
	_, c := nodetest.StartClient(t, nil)
	w := consoletest.Seed(t, c)
	if r := c.Must(http.StatusOK, "GET", "/v1/me", w.Alice, nil); r.Body["id"] != "alice" || r.Body["admin"] != false {
		t.Fatalf("me: %s", r.Raw)
	}
	all := c.Must(http.StatusOK, "GET", "/v1/access", admin, nil)
	if !strings.Contains(string(all.Raw), consoletest.BobAgent) || len(all.Body["users"].([]any)) != 2 {
		t.Fatalf("admin graph: %s", all.Raw)
	}
	// A user's graph is its own row: nothing of Bob's agent or resource.
	mine := c.Must(http.StatusOK, "GET", "/v1/access", w.Alice, nil)
	if s := string(mine.Raw); strings.Contains(s, consoletest.BobAgent) || strings.Contains(s, consoletest.BobResource) || strings.Contains(s, "bob") {
		t.Fatalf("alice's graph shows bob's: %s", s)
	}
	// As of before the revoke Alice still had critic; now she has not.
	before := c.Must(http.StatusOK, "GET", fmt.Sprintf("/v1/access?revision=%d", w.BeforeRevoke), w.Alice, nil)
	if !strings.Contains(string(before.Raw), `"critic"`) || strings.Contains(string(mine.Raw), `"critic"`) {
		t.Fatalf("time travel: before %s now %s", before.Raw, mine.Raw)
	}
	wantError(t, c.Must(http.StatusBadRequest, "GET", "/v1/access?revision=x", w.Alice, nil), "invalid", "revision")
	wantError(t, c.Must(http.StatusBadRequest, "GET", "/v1/access?revision=999999", admin, nil), "invalid", "beyond")
	c.Must(http.StatusUnauthorized, "GET", "/v1/access", "", nil)
}

func TestGrantChanges(t *testing.T) {
	_, c := nodetest.StartClient(t, nil)
	w := consoletest.Seed(t, c)
	all := c.Must(http.StatusOK, "GET", "/v1/grants/changes", admin, nil)
	changes := all.Body["changes"].([]any)
	if len(changes) != 8 {
		t.Fatalf("admin sees %d changes, want 8: %s", len(changes), all.Raw)
	}
	last := changes[7].(map[string]any)
	if last["granted"] != false || last["from"] != "alice" || last["to"] != "critic" || uint64(last["revision"].(float64)) != w.RevokeRevision {
		t.Fatalf("last change %v", last)
	}
	// Alice: her own edges and the resource edges of agents she could use.
	mine := c.Must(http.StatusOK, "GET", "/v1/grants/changes", w.Alice, nil)
	s := string(mine.Raw)
	if strings.Contains(s, consoletest.BobAgent) || strings.Contains(s, `"bob"`) {
		t.Fatalf("alice sees bob's grants: %s", s)
	}
	if n := len(mine.Body["changes"].([]any)); n != 5 { // alice→planner, alice→critic, planner→guide, critic→guide, revoke
		t.Fatalf("alice sees %d changes, want 5: %s", n, s)
	}
	// A window by revision.
	win := c.Must(http.StatusOK, "GET", fmt.Sprintf("/v1/grants/changes?from_revision=%d", w.BeforeRevoke), admin, nil)
	if n := len(win.Body["changes"].([]any)); n != 1 {
		t.Fatalf("window holds %d changes, want the revoke: %s", n, win.Raw)
	}
	lim := c.Must(http.StatusOK, "GET", "/v1/grants/changes?limit=2", admin, nil)
	if len(lim.Body["changes"].([]any)) != 2 || lim.Body["truncated"] != true {
		t.Fatalf("limit: %s", lim.Raw)
	}
	wantError(t, c.Must(http.StatusForbidden, "GET", "/v1/grants/changes?user=bob", w.Alice, nil), "forbidden", "own")
	wantError(t, c.Must(http.StatusBadRequest, "GET", "/v1/grants/changes?from=yesterday", admin, nil), "invalid", "from")
	wantError(t, c.Must(http.StatusBadRequest, "GET", "/v1/grants/changes?from_revision=9&to_revision=3", admin, nil), "invalid", "before")
	wantError(t, c.Must(http.StatusBadRequest, "GET", "/v1/grants/changes?limit=-1", admin, nil), "invalid", "limit")
}

func TestListQueriesAndUsage(t *testing.T) {
	_, c := nodetest.StartClient(t, nil)
	w := consoletest.Seed(t, c)
	mine := c.Must(http.StatusOK, "GET", "/v1/queries", w.Alice, nil)
	qs := mine.Body["queries"].([]any)
	if len(qs) != 1 || qs[0].(map[string]any)["id"] != w.AliceQuery || qs[0].(map[string]any)["text"] != consoletest.AliceQueryText {
		t.Fatalf("alice's queries: %s", mine.Raw)
	}
	if strings.Contains(string(mine.Raw), w.BobQuery) {
		t.Fatalf("alice's list holds bob's query: %s", mine.Raw)
	}
	all := c.Must(http.StatusOK, "GET", "/v1/queries", admin, nil)
	if len(all.Body["queries"].([]any)) != 2 {
		t.Fatalf("admin's list: %s", all.Raw)
	}
	one := c.Must(http.StatusOK, "GET", "/v1/queries?user=bob&limit=1", admin, nil)
	if q := one.Body["queries"].([]any); len(q) != 1 || q[0].(map[string]any)["id"] != w.BobQuery {
		t.Fatalf("admin's list of bob: %s", one.Raw)
	}
	wantError(t, c.Must(http.StatusForbidden, "GET", "/v1/queries?user=bob", w.Alice, nil), "forbidden", "own")
	wantError(t, c.Must(http.StatusBadRequest, "GET", "/v1/queries?limit=100000", w.Alice, nil), "invalid", "limit")

	u := c.Must(http.StatusOK, "GET", "/v1/usage", w.Alice, nil)
	rows := u.Body["users"].([]any)
	if len(rows) != 1 || rows[0].(map[string]any)["user"] != "alice" || rows[0].(map[string]any)["queries"] != 1.0 {
		t.Fatalf("alice's usage: %s", u.Raw)
	}
	au := c.Must(http.StatusOK, "GET", "/v1/usage", admin, nil)
	if len(au.Body["users"].([]any)) != 2 {
		t.Fatalf("admin usage: %s", au.Raw)
	}
	empty := c.Must(http.StatusOK, "GET", "/v1/usage?to=2000-01-01T00:00:00Z", admin, nil)
	if len(empty.Body["users"].([]any)) != 0 {
		t.Fatalf("usage before anything: %s", empty.Raw)
	}
}

func TestConsoleIsServed(t *testing.T) {
	_, c := nodetest.StartClient(t, nil)
	resp, err := http.Get(c.Base + "/")
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") ||
		!strings.Contains(resp.Header.Get("Content-Security-Policy"), "default-src 'none'") {
		t.Fatalf("GET /: %d %v", resp.StatusCode, resp.Header)
	}
	for _, p := range []string{"/console/app.js", "/console/style.css", "/console/graph.js"} {
		r := c.Do("GET", p, "", nil)
		if r.Status != http.StatusOK || len(r.Raw) == 0 {
			t.Fatalf("GET %s: %d", p, r.Status)
		}
	}
	// The icon browsers ask for at the root, whatever the page links.
	if ico := c.Do("GET", "/favicon.ico", "", nil); ico.Status != http.StatusOK || !bytes.HasPrefix(ico.Raw, []byte{0, 0, 1, 0}) {
		t.Fatalf("GET /favicon.ico: %d, %d bytes", ico.Status, len(ico.Raw))
	}
	// Unknown paths keep the API's JSON 404.
	wantError(t, c.Must(http.StatusNotFound, "GET", "/nope", "", nil), "not_found", "no such endpoint")
	c.Must(http.StatusNotFound, "GET", "/console/missing.js", "", nil)
}

// TestViewLineageHidesUnreadableSources: a shared fragment derived from its
// writer's private one shows that source to the writer only; another
// reader sees the shared fragment without learning the private one's id.
func TestViewLineageHidesUnreadableSources(t *testing.T) {
	_, c := nodetest.StartClient(t, nil)
	w := consoletest.Seed(t, c)
	r := c.Must(http.StatusCreated, "POST", "/v1/fragments", w.Alice, map[string]any{"agent": "planner", "key": "trip from passport",
		"value": "Travel documents are in order.", "tier": "shared", "derived_from": []string{w.AlicePrivate, w.AliceShared}})
	derived := r.Body["fragments"].([]any)[0].(map[string]any)["id"].(string)
	view := func(tok string) map[string][]any {
		v := c.Must(http.StatusOK, "POST", "/v1/memory/view", tok, map[string]any{"agent": "planner", "query": "trip", "k_user": 50, "k_cross": 50, "min_score": -1})
		out := map[string][]any{}
		for _, f := range v.Body["shared"].([]any) {
			f := f.(map[string]any)
			src, _ := f["derived_from"].([]any)
			out[f["id"].(string)] = src
		}
		return out
	}
	mine, bobs := view(w.Alice), view(w.Bob)
	if got := fmt.Sprint(mine[derived]); got != fmt.Sprint([]any{w.AlicePrivate, w.AliceShared}) {
		t.Fatalf("alice's lineage of %s: %v", derived, got)
	}
	if got, ok := bobs[derived]; !ok || fmt.Sprint(got) != fmt.Sprint([]any{w.AliceShared}) {
		t.Fatalf("bob's lineage of %s: %v (visible %v)", derived, got, ok)
	}
	if fmt.Sprint(mine[w.AliceDerived]) != fmt.Sprint([]any{w.AliceShared}) {
		t.Fatalf("alice's lineage of the seeded derived fragment: %v", mine[w.AliceDerived])
	}
}
