package gateway_test

import (
	"context"
	"encoding/json"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"testing"
	"time"

	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/node"
	"github.com/cmem/cmem/node/nodetest"
	"github.com/cmem/cmem/projectors/audit"
)

// TestAuditContract runs the audit endpoints on both backends: honest
// writes and reads through the API, one read forged onto the log, and the
// answers and errors of the contract.
func TestAuditContract(t *testing.T) {
	nodetest.OnAuditBackends(t, "gateway", auditContract)
}

func auditContract(t *testing.T, mutate func(*node.Config)) {
	n, c := nodetest.StartClient(t, mutate)
	alice, bob := c.User("alice", "user"), c.User("bob", "user")
	c.Must(http.StatusCreated, "POST", "/v1/agents", admin, map[string]string{"id": "planner", "description": "plans trips"})
	c.Must(http.StatusCreated, "POST", "/v1/resources", admin, map[string]any{"id": "guide", "kind": "knowledge_base",
		"description": "city guide", "documents": []map[string]string{{"id": "d1", "text": "Lyon has bouchons."}}})
	for _, p := range []string{"/v1/grants/user-agent/alice/planner", "/v1/grants/user-agent/bob/planner", "/v1/grants/agent-resource/planner/guide"} {
		c.Must(http.StatusOK, "PUT", p, admin, nil)
	}
	var written uint64
	write := func(tier string) string {
		r := c.Must(http.StatusCreated, "POST", "/v1/fragments", alice, map[string]any{"agent": "planner", "resources": []string{"guide"},
			"key": "lyon food " + tier, "value": "bouchons", "tier": tier})
		written = r.Revision()
		return r.Body["fragments"].([]any)[0].(map[string]any)["id"].(string)
	}
	shared, private := write("shared"), write("private")
	// min_revision: a view sees a write it did not fence on only once the
	// view's projection has applied it (read-your-writes is asked for).
	view := c.Must(http.StatusOK, "POST", "/v1/memory/view", bob, map[string]any{"agent": "planner", "query": "lyon food", "min_revision": written})
	if got := view.Body["shared"].([]any); len(got) != 1 {
		t.Fatalf("bob's view: %s", view.Raw)
	}
	time.Sleep(2 * time.Millisecond) // a distinct time between the view and the revoke
	before := time.Now().UTC()
	time.Sleep(2 * time.Millisecond)
	c.Must(http.StatusOK, "DELETE", "/v1/grants/agent-resource/planner/guide", admin, nil)

	head, err := n.Log.Head(context.Background(), "")
	if err != nil {
		t.Fatal(err)
	}
	forged, err := events.New(events.Meta{Source: "intruder", Actor: "bob"}, &events.MemoryRead{User: "bob", Agent: "planner",
		Query: "q", Private: []string{}, Shared: []string{private}, GraphRevision: head, Policy: events.PolicyTrace{Kind: "simple", Scope: "global"}})
	if err != nil {
		t.Fatal(err)
	}
	forgedRev, err := n.Log.Append(context.Background(), forged)
	if err != nil {
		t.Fatal(err)
	}
	fresh := "min_revision=" + strconv.FormatUint(forgedRev, 10)

	vis := c.Must(http.StatusOK, "GET", "/v1/audit/visible?user=alice&agent=planner&at="+url.QueryEscape(before.Format(time.RFC3339Nano))+"&"+fresh, admin, nil)
	if got := stringList(vis.Body["fragments"]); len(got) != 2 {
		t.Fatalf("M(alice, planner) before the revoke: %s", vis.Raw)
	}
	if got := stringList(c.Must(http.StatusOK, "GET", "/v1/audit/visible?user=alice&agent=planner&"+fresh, admin, nil).Body["fragments"]); len(got) != 0 {
		t.Fatalf("M(alice, planner) now, after the revoke: %v", got)
	}
	if got := stringList(c.Must(http.StatusOK, "GET", "/v1/audit/visible?user=bob&agent=planner&at="+url.QueryEscape(before.Format(time.RFC3339Nano)), admin, nil).Body["fragments"]); len(got) != 1 || got[0] != shared {
		t.Fatalf("M(bob, planner) before the revoke: %v, want [%s]", got, shared)
	}

	var reads []audit.Read
	decodeInto(t, c.Must(http.StatusOK, "GET", "/v1/audit/reads?fragment="+shared+"&"+fresh, admin, nil).Raw, &reads)
	if len(reads) != 1 || !reads[0].Admissible || reads[0].User != "bob" || reads[0].Agent != "planner" || reads[0].Revision != view.Revision() {
		t.Fatalf("reads of %s: %+v", shared, reads)
	}
	var violations []audit.Read
	decodeInto(t, c.Must(http.StatusOK, "GET", "/v1/audit/violations?"+fresh, admin, nil).Raw, &violations)
	if len(violations) != 1 || violations[0].Revision != forgedRev || violations[0].Fragment != private || violations[0].Reason != audit.ReasonPrivate {
		t.Fatalf("violations: %+v", violations)
	}
	decodeInto(t, c.Must(http.StatusOK, "GET", "/v1/audit/violations?to="+url.QueryEscape(before.Format(time.RFC3339Nano)), admin, nil).Raw, &violations)
	if len(violations) != 0 {
		t.Fatalf("violations before the forged read: %+v", violations)
	}
	var m audit.Metrics
	decodeInto(t, c.Must(http.StatusOK, "GET", "/v1/audit/metrics?bin=15m&"+fresh, admin, nil).Raw, &m)
	if m.Bin != "15m0s" || len(m.Bins) == 0 || m.Reuse.CrossUserReads != 2 || m.Reuse.FragmentsReused != 2 {
		t.Fatalf("metrics: %+v", m)
	}

	wantError(t, c.Must(http.StatusForbidden, "GET", "/v1/audit/violations", bob, nil), "forbidden", "admins")
	c.Must(http.StatusUnauthorized, "GET", "/v1/audit/reads?fragment=x", "", nil)
	wantError(t, c.Must(http.StatusBadRequest, "GET", "/v1/audit/visible?user=alice", admin, nil), "invalid", "agent")
	wantError(t, c.Must(http.StatusBadRequest, "GET", "/v1/audit/visible?user=alice&agent=planner&at=yesterday", admin, nil), "invalid", "RFC 3339")
	wantError(t, c.Must(http.StatusBadRequest, "GET", "/v1/audit/reads", admin, nil), "invalid", "fragment")
	wantError(t, c.Must(http.StatusBadRequest, "GET", "/v1/audit/violations?from=2026-02-01T00:00:00Z&to=2026-01-01T00:00:00Z", admin, nil), "invalid", "before")
	wantError(t, c.Must(http.StatusBadRequest, "GET", "/v1/audit/metrics?bin=fast", admin, nil), "invalid", "bin")
	wantError(t, c.Must(http.StatusBadRequest, "GET", "/v1/audit/metrics?min_revision=-1", admin, nil), "invalid", "min_revision")
}

func stringList(v any) []string {
	var out []string
	list, _ := v.([]any)
	for _, x := range list {
		out = append(out, x.(string))
	}
	return out
}

func decodeInto(t *testing.T, raw []byte, v any) {
	t.Helper()
	if err := json.Unmarshal(raw, v); err != nil {
		t.Fatalf("%v: %s", err, raw)
	}
}

// TestAuditWithClickHouseDown: a node whose ClickHouse is unreachable
// starts and serves everything else; the audit endpoints answer 503.
func TestAuditWithClickHouseDown(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dead := "clickhouse://" + l.Addr().String() + "/cmem"
	_ = l.Close() // nothing listens there now
	_, c := nodetest.StartClient(t, func(c *node.Config) { c.Audit.DSN = dead })
	c.User("alice", "user")
	c.Must(http.StatusCreated, "POST", "/v1/agents", admin, map[string]string{"id": "planner", "description": "d"})
	c.Must(http.StatusOK, "PUT", "/v1/grants/user-agent/alice/planner", admin, nil)
	c.Must(http.StatusOK, "GET", "/v1/access/alice", admin, nil)
	wantError(t, c.Must(http.StatusServiceUnavailable, "GET", "/v1/audit/violations", admin, nil), "unavailable", "clickhouse")
}
