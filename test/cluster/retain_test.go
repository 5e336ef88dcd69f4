package cluster_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/cmem/cmem/test/cluster/clustertest"
)

// A gateway that keeps only 2 finished queries in memory still answers
// GET /v1/queries/{id} for an older one, the same as when it was new: the
// query is rebuilt from its events in the log.
func TestEvictedQueryIsReadBackFromTheLog(t *testing.T) {
	c := clustertest.Start(t, clustertest.Options{Gateways: 1, Workers: 1, WorkerArgs: workerArgs,
		GatewayArgs: []string{"-query-retain", "2"}})
	l := clustertest.Setup(t, c, archive(t))
	base, token := c.Gateways[0].Base(), l.Token("w0")
	answers := map[string]any{}
	var ids []string
	for i := range 5 {
		// 503 says a projection was not fresh enough yet (a gateway just
		// started on a loaded machine): the contract is to retry.
		var st int
		var b map[string]any
		var err error
		for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(200 * time.Millisecond) {
			st, b, err = clustertest.Call("POST", base+"/v1/queries", token, map[string]any{"text": fmt.Sprintf("archive history records %d", i)})
			if err != nil || st != 503 || time.Now().After(deadline) {
				break
			}
		}
		if err != nil || st != 200 || b["status"] != "answered" {
			t.Fatalf("query %d: %d %v %v", i, st, b, err)
		}
		ids = append(ids, b["id"].(string))
		answers[b["id"].(string)] = b["answer"]
	}
	for _, id := range ids {
		st, b, err := clustertest.Call("GET", base+"/v1/queries/"+id, token, nil)
		if err != nil || st != 200 || b["status"] != "answered" || b["answer"] != answers[id] {
			t.Errorf("GET query %s after eviction: %d %v %v; want the answer %q", id, st, b, err, answers[id])
		}
	}
	if st, _, _ := clustertest.Call("GET", base+"/v1/queries/q-never-was", token, nil); st != 404 {
		t.Errorf("unknown query: %d, want 404", st)
	}
}

// The digest is admin-only, refuses a malformed revision with 400, is
// deterministic at a past revision, and changes when the graph does: a
// comparison of digests can fail. A worker serves the same digest on its
// metrics address, admin-only too.
func TestDigestSeesTheGraph(t *testing.T) {
	c := clustertest.Start(t, clustertest.Options{Gateways: 2, Workers: 1})
	l := clustertest.Setup(t, c, "http://127.0.0.1:1")
	a, b := c.Gateways[0].Base(), c.Gateways[1].Base()
	// A 503 means the process's projections had not reached the log head
	// within its read wait (a loaded machine): the contract says ask again.
	digest := func(base, token, query string) (int, map[string]any) {
		for try := 0; ; try++ {
			st, d, err := clustertest.Call("GET", base+"/v1/debug/digest"+query, token, nil)
			if err != nil {
				t.Fatal(err)
			}
			if st != 503 || try == 5 {
				return st, d
			}
			time.Sleep(time.Second)
		}
	}
	if st, _ := digest(a, l.Token("w0"), ""); st != 403 {
		t.Errorf("digest as a user: %d, want 403", st)
	}
	wk := c.Workers[0].Base()
	if st, body := digest(wk, l.Token("w0"), ""); st != 403 {
		t.Errorf("a worker's digest as a user: %d, want 403 (%v)", st, body)
	}
	if st, _ := digest(a, clustertest.AdminToken, "?revision=abc"); st != 400 {
		t.Errorf("digest of revision abc: %d, want 400", st)
	}
	_, before := digest(a, clustertest.AdminToken, "")
	rev := clustertest.Revision(before)
	st, g, err := clustertest.Call("PUT", a+"/v1/grants/user-agent/r0/scribe", clustertest.AdminToken, nil)
	if err != nil || st != 200 {
		t.Fatalf("grant: %d %v %v", st, g, err)
	}
	_, after := digest(b, clustertest.AdminToken, fmt.Sprintf("?revision=%d", clustertest.Revision(g)))
	if after["access"] == before["access"] {
		t.Error("the access digest did not change with a grant")
	}
	if _, again := digest(b, clustertest.AdminToken, fmt.Sprintf("?revision=%d", rev)); again["access"] != before["access"] {
		t.Errorf("digest at revision %d differs between gateways or over time: %v vs %v", rev, before, again)
	}
	if st, wd := digest(wk, clustertest.AdminToken, fmt.Sprintf("?revision=%d", clustertest.Revision(g))); st != 200 || wd["access"] != after["access"] {
		t.Errorf("the worker's digest at revision %d: %d %v, the gateway's %v", clustertest.Revision(g), st, wd, after)
	}
}
