package app_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/cmem/cmem/app"
	"github.com/cmem/cmem/events"
)

// BenchmarkAgentTurnRoundTrips counts the requests one agent turn sends to
// the stream leader (heads: read fences; appends: its events), on an agent
// that reads memory, calls one knowledge base and writes both tiers. Before
// the pipeline took one snapshot per stage the count was 8 + 2N heads and
// 4 + N appends for N tool calls.
func BenchmarkAgentTurnRoundTrips(b *testing.B) {
	// memory: the same question each time, answered from memory after the
	// first; tool: a new subject each time, which needs the knowledge base.
	b.Run("memory", func(b *testing.B) {
		benchTurns(b, func(int) string { return "What food is Lyon famous for?" })
	})
	b.Run("tool", func(b *testing.B) {
		benchTurns(b, func(i int) string { return fmt.Sprintf("Where is zq%dx stored?", i%500) })
	})
}

func benchTurns(b *testing.B, question func(int) string) {
	r := newRig(b, nil)
	world(b, r)
	ctx := context.Background()
	list := []map[string]string{{"id": "lyon", "text": "Lyon is famous for its bouchons."}}
	for i := range 500 {
		list = append(list, map[string]string{"id": fmt.Sprintf("d%d", i), "text": fmt.Sprintf("zq%dx is stored on shelf %d.", i, i)})
	}
	docs, _ := json.Marshal(list)
	if _, err := r.app.RegisterResource(ctx, admin, "kb", "knowledge_base", "city guide", map[string]json.RawMessage{"documents": docs}); err != nil {
		b.Fatal(err)
	}
	if _, err := r.app.SetGrant(ctx, admin, app.Edge{From: "x", To: "kb"}, true); err != nil {
		b.Fatal(err)
	}
	p := r.pipeline(b, app.PipelineConfig{})
	var heads, appends, calls int
	for i := 0; b.Loop(); i++ {
		id := fmt.Sprintf("q%d", i)
		text := question(i)
		meta := events.Meta{Source: "b", Actor: "alice", CorrelationID: id}
		sel := &events.AgentSelected{QueryID: id, User: "alice", Round: 1, Agent: "x", Subquery: text, Offered: []string{"x", "y"},
			Label: &events.Label{Agents: []string{}, Resources: []string{}}}
		var rev uint64
		for _, pl := range []events.Payload{&events.QuerySubmitted{ID: id, User: "alice", Text: text, Channel: "http"}, sel} {
			e, err := events.New(meta, pl)
			if err != nil {
				b.Fatal(err)
			}
			if rev, err = r.log.Append(ctx, e, false); err != nil {
				b.Fatal(err)
			}
		}
		a0, h0 := r.log.requests()
		if err := p.RunAgentTurn(ctx, app.AgentTurnCmd{Selected: *sel, Revision: rev}); err != nil {
			b.Fatal(err)
		}
		a1, h1 := r.log.requests()
		heads, appends = heads+h1-h0, appends+a1-a0
		q, _ := r.queries.Get(id)
		calls += len(q.Steps[0].ResourceCalls)
	}
	b.ReportMetric(float64(heads)/float64(b.N), "heads/turn")
	b.ReportMetric(float64(appends)/float64(b.N), "appends/turn")
	b.ReportMetric(float64(heads+appends)/float64(b.N), "leader-requests/turn")
	b.ReportMetric(float64(calls)/float64(b.N), "tool-calls/turn")
	b.ReportMetric(0, "ns/op")
}
