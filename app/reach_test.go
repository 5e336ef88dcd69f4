package app_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/cmem/cmem/app"
	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/llm"
)

// cardSpy is a provider whose coordinator records the agent cards it is
// shown and stops.
type cardSpy struct {
	llm.Provider
	seen [][]llm.AgentCard
}

func (s *cardSpy) Coordinate(_ context.Context, req llm.CoordinateRequest) (llm.Decision, error) {
	s.seen = append(s.seen, req.Agents)
	return llm.Decision{Stop: true}, nil
}

// Reach measures what an agent can answer from — its knowledge base's
// passages and the memory admissible to (u,a) — as a number: an agent
// holding the answer reaches further than one without, and memory another
// user may not read raises nobody's reach.
func TestReachCountsOnlyWhatTheAgentCanAnswerFrom(t *testing.T) {
	offline, err := llm.NewOffline(llm.OfflineConfig{})
	if err != nil {
		t.Fatal(err)
	}
	spy := &cardSpy{Provider: offline}
	r := newRig(t, spy)
	world(t, r)
	ctx := context.Background()
	docs := json.RawMessage(`[{"id":"lyon","text":"Lyon is famous for its bouchons and quenelles."}]`)
	if _, err := r.app.RegisterResource(ctx, admin, "guide", "knowledge_base", "documents", map[string]json.RawMessage{"documents": docs}); err != nil {
		t.Fatal(err)
	}
	if _, err := r.app.SetGrant(ctx, admin, app.Edge{From: "x", To: "guide"}, true); err != nil {
		t.Fatal(err)
	}
	const question = "What food is Lyon famous for?"
	if _, err := r.app.WriteFragment(ctx, app.Identity{ID: "alice"}, app.WriteRequest{Agent: "y", Key: question, Value: "Quenelles.", Tier: "private"}); err != nil {
		t.Fatal(err)
	}
	p, err := app.NewPipeline(r.app, app.PipelineConfig{}, r.queries, nil)
	if err != nil {
		t.Fatal(err)
	}
	reach := func(id, user string) map[string]float32 {
		t.Helper()
		e, err := events.New(events.Meta{Source: "t", Actor: user, CorrelationID: id, Time: time.Now()},
			&events.QuerySubmitted{ID: id, User: user, Text: question, Channel: "http"})
		if err != nil {
			t.Fatal(err)
		}
		rev, err := r.log.Append(ctx, e, false)
		if err != nil {
			t.Fatal(err)
		}
		if err := p.Coordinate(ctx, app.CoordinateCmd{QueryID: id, Revision: rev}); err != nil {
			t.Fatal(err)
		}
		out := map[string]float32{}
		for _, c := range spy.seen[len(spy.seen)-1] {
			out[c.ID] = c.Reach
		}
		return out
	}
	a := reach("qa", "alice")
	if a["x"] < 0.3 || a["y"] < 0.3 {
		t.Fatalf("alice: reach %v; x holds the guide and y alice's own memory of the answer", a)
	}
	b := reach("qb", "bob")
	if b["y"] >= 0.3 {
		t.Fatalf("bob: reach of y %v counts alice's private memory", b["y"])
	}
}
