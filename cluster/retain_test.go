package cluster_test

import (
	"fmt"
	"testing"

	"github.com/cmem/cmem/cluster/clustertest"
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
		st, b, err := clustertest.Call("POST", base+"/v1/queries", token, map[string]any{"text": fmt.Sprintf("archive history records %d", i)})
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
