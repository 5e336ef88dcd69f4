package app_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/cmem/cmem/app"
	"github.com/cmem/cmem/domain"
)

// Reach measures what an agent can answer from — its knowledge base's
// passages and the memory admissible to (u,a) — as a number: an agent
// holding the answer reaches further than one without, and memory another
// user may not read raises nobody's reach.
func TestReachCountsOnlyWhatTheAgentCanAnswerFrom(t *testing.T) {
	spy := &coordSpy{Provider: newOffline(t)}
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
	if _, err := r.app.WriteFragment(ctx, domain.Identity{ID: "alice"}, app.WriteRequest{Agent: "y", Key: question, Value: "Quenelles.", Tier: "private"}); err != nil {
		t.Fatal(err)
	}
	p := r.pipeline(t, app.PipelineConfig{})
	reach := func(id, user string) map[string]float32 {
		t.Helper()
		r.coordinate(t, p, id, user, question)
		out := map[string]float32{}
		for _, c := range spy.last().Agents {
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
