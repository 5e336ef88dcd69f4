package e2e_test

import (
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/cmem/cmem/internal/benchfig"
	"github.com/cmem/cmem/test/cluster/clustertest"
)

// BenchmarkPipelineProcesses measures queries/s end to end with 1, 2 and 4
// worker processes: `cmem serve` (gateway, embedded NATS and its own
// pipeline workers) alone, then with 1 and 3 `cmem worker` processes
// sharing its durable consumers; separate OS processes, not goroutines.
// Queries go in over HTTP 40 at a time, as in BenchmarkPipeline. Beside
// queries/s it reports the CPU time all the processes used per query and
// how many cores they kept busy: on a machine with fewer cores than
// processes, the curve is bounded by that, not by the consumers.
func BenchmarkPipelineProcesses(b *testing.B) {
	var one float64
	for _, workers := range []int{1, 2, 4} {
		b.Run(fmt.Sprintf("processes=%d", workers), func(b *testing.B) {
			env := []string{"CMEM_RATE_LIMITS=off"}
			serve, natsURL := clustertest.Serve(b, env)
			procs := []*clustertest.Proc{serve}
			for range workers - 1 {
				procs = append(procs, clustertest.Worker(b, natsURL, env))
			}
			base, user := setupArchive(b, serve)
			const perIter = 40
			cpu0 := cpuOf(procs)
			b.ResetTimer()
			start := time.Now()
			for i := 0; b.Loop(); i++ {
				ids := make([]string, 0, perIter)
				for j := range perIter {
					st, body, err := clustertest.Call("POST", base+"/v1/queries", user, map[string]any{
						"text": fmt.Sprintf("Where is item %d of topic%d stored?", j, (i*perIter+j)%50), "wait": false,
					})
					if err != nil || st != http.StatusAccepted {
						b.Fatalf("submit: %d %v %v", st, body, err)
					}
					ids = append(ids, body["id"].(string))
				}
				for _, id := range ids {
					waitAnswered(b, base, user, id)
				}
			}
			elapsed := time.Since(start)
			cpu := cpuOf(procs) - cpu0
			n := float64(b.N * perIter)
			qps := n / elapsed.Seconds()
			b.ReportMetric(qps, "queries/s")
			b.ReportMetric(float64(cpu.Milliseconds())/n, "cpu-ms/query")
			b.ReportMetric(cpu.Seconds()/elapsed.Seconds(), "cores-busy")
			b.ReportMetric(0, "ns/op")
			fig := benchfig.Figure{
				Name:  fmt.Sprintf("queries/s end to end, offline, %d worker process(es)", workers),
				Value: qps, Unit: "queries/s", Goal: "rises with processes given cores",
			}
			if workers == 1 {
				one = qps
			} else if one > 0 {
				fig.Baseline, fig.BaselineValue = "1 worker process, same run", one
			}
			benchfig.Record(b, fig)
		})
	}
}

// setupArchive registers the archive of BenchmarkPipeline over HTTP and
// returns the API base and the user's token.
func setupArchive(b *testing.B, serve *clustertest.Proc) (base, user string) {
	base = serve.Base()
	must := func(want int, method, path string, body any) map[string]any {
		b.Helper()
		st, out, err := clustertest.Call(method, base+path, clustertest.AdminToken, body)
		if err != nil || st != want {
			b.Fatalf("%s %s: %d %v %v", method, path, st, out, err)
		}
		return out
	}
	docs := make([]map[string]string, 50)
	for i := range docs {
		docs[i] = map[string]string{"id": fmt.Sprintf("d%d", i), "text": fmt.Sprintf("Topic%d facts: item %d is stored in archive shelf %d.", i, i, i*7)}
	}
	must(http.StatusCreated, "POST", "/v1/agents", map[string]string{"id": "archivist", "description": "archive facts topics items shelves"})
	must(http.StatusCreated, "POST", "/v1/resources", map[string]any{"id": "archive", "kind": "knowledge_base", "description": "archive facts topics items", "documents": docs})
	user = must(http.StatusCreated, "POST", "/v1/users", map[string]string{"id": "u"})["token"].(string)
	must(http.StatusOK, "PUT", "/v1/grants/user-agent/u/archivist", nil)
	must(http.StatusOK, "PUT", "/v1/grants/agent-resource/archivist/archive", nil)
	return base, user
}

func waitAnswered(b *testing.B, base, token, id string) {
	deadline := time.Now().Add(90 * time.Second)
	for {
		st, body, err := clustertest.Call("GET", base+"/v1/queries/"+id+"?wait=5", token, nil)
		if err == nil && st == http.StatusOK {
			if body["status"] != "answered" {
				b.Fatalf("query %s: %v", id, body)
			}
			return
		}
		if time.Now().After(deadline) {
			b.Fatalf("query %s not answered: %d %v %v", id, st, body, err)
		}
	}
}

func cpuOf(procs []*clustertest.Proc) time.Duration {
	var sum time.Duration
	for _, p := range procs {
		sum += p.CPU()
	}
	return sum
}
