package app_test

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/cmem/cmem/app"
	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/llm"
	"github.com/cmem/cmem/llm/offline"
)

// judge is the offline provider with a model's fact decision: two memories
// about Lumen are one fact. It keeps what it was shown.
type judge struct {
	*offline.Provider
	mu   sync.Mutex
	seen []string
}

func (j *judge) SameFact(_ context.Context, existing, candidate llm.KeyValue) (bool, error) {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.seen = append(j.seen, existing.Value)
	return strings.Contains(existing.Key, "Lumen") && strings.Contains(candidate.Key, "Lumen"), nil
}

// With a model that judges facts, a write the same-key rule does not match
// supersedes the nearest fragment the model says is the same fact; the
// model is only ever shown fragments the writer may read, even from a
// store whose filter leaks.
func TestModelDecidesSupersession(t *testing.T) {
	j := &judge{Provider: newOffline(t)}
	r := newRig(t, j, func(d *app.Deps) { d.Store = leakyStore{d.Store} })
	world(t, r)
	hidden := writeFact(t, r, alice, "x", "third quarter revenue of Lumen bakery", "zqx-hidden-plan", may1) // nearest; bob cannot read it
	old := writeFact(t, r, alice, "y", "Lumen Q3 revenue", "41 million", may1)
	j.mu.Lock()
	j.seen = nil // alice may read her own plan: only bob's write is checked
	j.mu.Unlock()
	cur := writeFact(t, r, bob, "y", "third quarter revenue of Lumen", "45 million", aug1)
	if cur.Supersedes != old.ID {
		t.Fatalf("supersedes %q, want %s (the model said same fact)", cur.Supersedes, old.ID)
	}
	var decision string
	for _, e := range r.log.envelopes() {
		if e.Type == events.TypeFragmentSuperseded {
			p, _ := e.Decode()
			decision = p.(*events.FragmentSuperseded).Decision
		}
	}
	if decision != "model:"+j.Name() {
		t.Errorf("decision %q", decision)
	}
	if len(j.seen) == 0 {
		t.Fatal("the model was asked nothing")
	}
	for _, v := range j.seen {
		if v == "zqx-hidden-plan" {
			t.Fatalf("the model was shown %s (fragment %s), which bob cannot read", v, hidden.ID)
		}
	}
	if got := shared(t, r, bob, "y", "Lumen revenue", nil); len(got) != 1 || got[0] != "45 million" {
		t.Errorf("bob's view %v", got)
	}
}
