package app_test

import (
	"bytes"
	"context"
	"encoding/json"
	"slices"
	"testing"

	"github.com/cmem/cmem/app"
	"github.com/cmem/cmem/domain"
	"github.com/cmem/cmem/embedding"
	"github.com/cmem/cmem/embedding/hashing"
	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/projectors/rerank"
)

var tuning = rerank.Config{}

// newRerankRig is a rig whose memory view re-ranks with a learned
// retriever fed from its log, and whose shared tier has an admission gate
// that admits everything (so every shared write teaches).
func newRerankRig(t testing.TB, emb embedding.Embedder) (*rig, *rerank.Model) {
	t.Helper()
	model, err := rerank.New(tuning)
	if err != nil {
		t.Fatal(err)
	}
	r := newRigOn(t, emb, nil, func(d *app.Deps) { d.Reranker = model })
	r.log.apply = append(r.log.apply, model.Apply)
	world(t, r)
	return r, model
}

// gate sets an admission gate on the shared tier from now on.
func gate(t testing.TB, r *rig) {
	t.Helper()
	cfg := json.RawMessage(`{"threshold": 0, "rubrics": [{"name": "useful", "description": "useful", "min": 0, "max": 10}]}`)
	if _, err := r.app.SetPolicy(context.Background(), admin, app.PolicyRequest{Target: "write_shared", Kind: "admission", Config: cfg}); err != nil {
		t.Fatal(err)
	}
}

func write(t testing.TB, r *rig, user, agent, key, value string, from ...string) string {
	t.Helper()
	w, err := r.app.WriteFragment(context.Background(), domain.Identity{ID: user}, app.WriteRequest{Agent: agent, Key: key,
		Value: value, Tier: events.TierShared, DerivedFrom: from})
	if err != nil {
		t.Fatal(err)
	}
	return w.Fragments[0].ID
}

// A re-ranker trained on fragments a reader may not see leaves that
// reader's ranking byte-identical; the same lessons from fragments the
// reader may see change it; a revoke removes their influence at once.
func TestRerankerIgnoresWhatTheReaderCannotSee(t *testing.T) {
	r, model := newRerankRig(t, hashing.New(64))
	ctx := context.Background()
	// Bob's pool, through y: the answer worded unlike the question, and
	// look-alikes that say nothing.
	relevant := write(t, r, "bob", "y", "Lyon dining", "bouchons serve quenelles and andouillette")
	seeds := []string{relevant}
	for _, k := range []string{"where to eat in Lyon tonight", "where to eat in Lyon cheaply", "where to eat near Lyon station"} {
		seeds = append(seeds, write(t, r, "bob", "y", k, "anyone have tips?"))
	}
	view := func(user string) (raw []byte, seedOrder []string) {
		t.Helper()
		v, err := r.app.MemoryView(ctx, domain.Identity{ID: user}, app.ViewRequest{Agent: "y", Query: "where to eat in Lyon?", KCross: 20})
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range v.Shared {
			if slices.Contains(seeds, f.ID) {
				seedOrder = append(seedOrder, f.ID)
			}
		}
		raw, err = json.Marshal(v.Shared)
		if err != nil {
			t.Fatal(err)
		}
		return raw, seedOrder
	}
	bobBase, bobOrder := view("bob")
	aliceBase, _ := view("alice")
	if len(bobOrder) != 4 || bobOrder[0] == relevant {
		t.Fatalf("by similarity alone the look-alikes must come first: %v", bobOrder)
	}

	// Lessons bob may not see: alice, through x, admits memories derived
	// from bob's pool (provenance {x, y}; bob may not invoke x).
	gate(t, r)
	var hidden []string
	for _, a := range []string{"try the bouchons for quenelles", "quenelles in a bouchon", "andouillette at the bouchons"} {
		hidden = append(hidden, write(t, r, "alice", "x", "where to eat in Lyon", a, seeds...))
	}
	if !slices.ContainsFunc(model.Taught(hidden[0]), func(c rerank.Contribution) bool { return c.Candidate == relevant && c.Delta > 0 }) {
		t.Fatalf("the hidden lessons must have labelled bob's relevant fragment: %v", model.Taught(hidden[0]))
	}
	if got, _ := view("bob"); !bytes.Equal(got, bobBase) {
		t.Fatalf("lessons bob may not see changed his view:\nbefore %s\nafter  %s", bobBase, got)
	}
	if notes := lastRead(t, r).Policy.Notes; len(notes) != 0 {
		t.Fatalf("bob's read records lessons he may not see: %v", notes)
	}
	// Alice may see them: her order of bob's pool changes, and her read
	// says what shaped it.
	if _, order := view("alice"); order[0] != relevant {
		t.Fatalf("lessons alice may see must raise the relevant fragment: %v", order)
	}
	if notes := lastRead(t, r).Policy.Notes; !slices.Contains(notes, "re-ranked with what 3 admitted memories taught") {
		t.Fatalf("alice's read does not record the re-ranking: %v", notes)
	}
	// A revoke takes their influence away at once.
	if _, err := r.app.SetGrant(ctx, admin, app.Edge{UserAgent: true, From: "alice", To: "x"}, false); err != nil {
		t.Fatal(err)
	}
	if got, _ := view("alice"); !bytes.Equal(got, aliceBase) {
		t.Fatalf("after the revoke alice's view still shows what she lost:\nbefore %s\nafter  %s", aliceBase, got)
	}
	// The same lessons from fragments bob may see change his ranking.
	for _, a := range []string{"try the bouchons for quenelles", "quenelles in a bouchon", "andouillette at the bouchons"} {
		write(t, r, "bob", "y", "where to eat in Lyon", a)
	}
	if _, order := view("bob"); order[0] != relevant {
		t.Fatalf("lessons bob may see must raise the relevant fragment: %v", order)
	}
}

// lastRead is the newest MemoryRead in r's log.
func lastRead(t *testing.T, r *rig) *events.MemoryRead {
	t.Helper()
	es := r.log.envelopes()
	for i := len(es) - 1; i >= 0; i-- {
		if es[i].Type == events.TypeMemoryRead {
			p, err := es[i].Decode()
			if err != nil {
				t.Fatal(err)
			}
			return p.(*events.MemoryRead)
		}
	}
	t.Fatal("no memory read in the log")
	return nil
}
