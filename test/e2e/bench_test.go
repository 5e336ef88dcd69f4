package e2e_test

import (
	"context"
	"fmt"
	"github.com/cmem/cmem/domain"
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/cmem/cmem/app"
	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/events/eventlog"
	"github.com/cmem/cmem/node"
	"github.com/cmem/cmem/node/nodetest"
)

// BenchmarkPipeline measures queries/s end to end on the offline provider
// with 1, 2 and 4 worker instances sharing the durable consumers (one
// serve node plus worker-role nodes on its embedded NATS, all in this
// process), and the per-stage latency p50/p99 from the events' times.
func BenchmarkPipeline(b *testing.B) {
	for _, workers := range []int{1, 2, 4} {
		b.Run(fmt.Sprintf("workers=%d", workers), func(b *testing.B) {
			n := nodetest.Start(b, nil)
			for range workers - 1 {
				nodetest.Start(b, func(c *node.Config) { c.Role, c.NATSURL = node.RoleWorker, n.Log.ConnectURL() })
			}
			c := nodetest.NewClient(b, n)
			docs := make([]map[string]string, 50)
			for i := range docs {
				docs[i] = map[string]string{"id": fmt.Sprintf("d%d", i), "text": fmt.Sprintf("Topic%d facts: item %d is stored in archive shelf %d.", i, i, i*7)}
			}
			c.Must(http.StatusCreated, "POST", "/v1/agents", admin, map[string]string{"id": "archivist", "description": "archive facts topics items shelves"})
			c.Must(http.StatusCreated, "POST", "/v1/resources", admin, map[string]any{"id": "archive", "kind": "knowledge_base", "description": "archive facts topics items", "documents": docs})
			c.User("u", "user")
			grantAgent(c, "u", "archivist")
			c.Must(http.StatusOK, "PUT", "/v1/grants/agent-resource/archivist/archive", admin, nil)
			const perIter = 40
			b.ResetTimer()
			a0, h0 := eventlog.LeaderRequests()
			start := time.Now()
			for i := 0; b.Loop(); i++ {
				ids := make([]string, 0, perIter)
				for j := range perIter {
					id, _, err := n.App.SubmitQuery(context.Background(), domain.Identity{ID: "u"},
						fmt.Sprintf("Where is item %d of topic%d stored?", j, (i*perIter+j)%50), app.ChannelHTTP, "", nil)
					if err != nil {
						b.Fatal(err)
					}
					ids = append(ids, id)
				}
				for _, id := range ids {
					ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
					q, done := n.Queries.Wait(ctx, id)
					cancel()
					if !done || q.Failed() {
						b.Fatalf("query %s: done=%v failed=%v %s", id, done, q.Failed(), q.FailReason)
					}
				}
			}
			elapsed := time.Since(start)
			a1, h1 := eventlog.LeaderRequests()
			b.ReportMetric(float64(b.N*perIter)/elapsed.Seconds(), "queries/s")
			b.ReportMetric(float64(a1+h1-a0-h0)/float64(b.N*perIter), "leader-requests/query")
			b.ReportMetric(float64(h1-h0)/float64(b.N*perIter), "heads/query")
			reportStages(b, n)
			b.ReportMetric(0, "ns/op")
		})
	}
}

// reportStages derives per-stage latencies from the event times of every
// query on the log: coordinator (submitted or responded -> selected or
// answered), agent (selected -> responded), and total.
func reportStages(b *testing.B, n *node.Node) {
	submitted := map[string]time.Time{}
	var coord, agent, total []float64
	last := map[string]time.Time{}
	for _, rec := range nodetest.Events(b, n, events.TypeQuerySubmitted, events.TypeAgentSelected, events.TypeAgentResponded, events.TypeQueryAnswered) {
		q := rec.CorrelationID
		prev, seen := last[q]
		switch rec.Type {
		case events.TypeQuerySubmitted:
			submitted[q] = rec.Time
		case events.TypeAgentSelected, events.TypeQueryAnswered:
			if seen {
				coord = append(coord, ms(rec.Time.Sub(prev)))
			}
			if t0, ok := submitted[q]; ok && rec.Type == events.TypeQueryAnswered {
				total = append(total, ms(rec.Time.Sub(t0)))
			}
		case events.TypeAgentResponded:
			if seen {
				agent = append(agent, ms(rec.Time.Sub(prev)))
			}
		}
		last[q] = rec.Time
	}
	for name, s := range map[string][]float64{"coordinator": coord, "agent": agent, "total": total} {
		slices.Sort(s)
		if len(s) == 0 {
			continue
		}
		b.ReportMetric(s[len(s)/2], name+"-p50-ms")
		b.ReportMetric(s[len(s)*99/100], name+"-p99-ms")
	}
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
