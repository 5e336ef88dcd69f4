package rerank_test

import (
	"testing"

	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/projectors/rerank"
)

// history is a log with lessons, a deletion and a user's erasure; with
// shredded, the erased fragments' writes read as a replay after
// crypto-shredding reads them (their content destroyed).
func history(shredded bool) []events.Payload {
	erased := map[string]bool{"d2": true, "relevant": true}
	var out []events.Payload
	add := func(f *events.FragmentWritten) {
		if shredded && erased[f.ID] {
			f.Key, f.Value = events.Erased, events.Erased
		}
		out = append(out, f)
	}
	for _, p := range pool() {
		add(p.(*events.FragmentWritten))
	}
	add(frag("m1", "where to eat in Lyon", "try the bouchons for quenelles", true, "x"))
	add(frag("museum", "Paris museum passes", "the Louvre pass skips queues", false, "x"))
	add(frag("m2", "which museum pass in Paris", "a Louvre pass skips the queues", true, "x"))
	out = append(out, &events.FragmentDeleted{ID: "d2", User: "u", Derived: []string{}, Queries: []string{}})
	add(frag("m3", "Lyon food", "quenelles at a bouchon", true, "x"))
	out = append(out, &events.UserErased{User: "v", Fragments: []string{"relevant"}, Queries: []string{}})
	return out
}

// The model is a projection of the log: replaying it gives the same model
// to the bit, also when the erased fragments' content is gone from the
// log (a replay after crypto-shredding never sees them).
func TestReplayGivesTheSameModel(t *testing.T) {
	live := model(t)
	feed(t, live, history(false)...)
	again := model(t)
	feed(t, again, history(false)...)
	shredded := model(t)
	feed(t, shredded, history(true)...)
	if live.Lessons() != 3 || live.Taught("m3") == nil {
		t.Fatalf("the history taught %d lessons (m3: %v), want 3", live.Lessons(), live.Taught("m3"))
	}
	if live.Digest() != again.Digest() {
		t.Fatal("replaying the same log gave another model")
	}
	if live.Digest() != shredded.Digest() {
		t.Fatalf("after erasure the live model differs from a replay that never saw the erased content:\nlive %v\nreplay %v",
			live.Taught("m1"), shredded.Taught("m1"))
	}
	// The digest sees a difference in what was learned.
	partial := model(t)
	h := history(false)
	feed(t, partial, h[:len(h)-2]...)
	feed(t, partial, h[len(h)-1])
	if partial.Digest() == live.Digest() {
		t.Fatal("a model that missed a lesson has the live model's digest")
	}
}

// The erased fragments no longer shape what a lesson taught: m1, whose
// only positive was erased, teaches nothing any more.
func TestErasureRelearns(t *testing.T) {
	m := model(t)
	h := history(false)
	feed(t, m, h[:len(h)-1]...)
	if !holds(m.Taught("m1"), "relevant") {
		t.Fatalf("before the erasure m1 must have labelled the relevant fragment: %v", m.Taught("m1"))
	}
	feed(t, m, h[len(h)-1])
	if m.Taught("m1") != nil {
		t.Fatalf("m1 lost its only positive and still teaches %v", m.Taught("m1"))
	}
	for _, id := range []string{"m1", "m3"} {
		for _, c := range m.Taught(id) {
			if c.Candidate == "relevant" || c.Candidate == "d2" { // erased
				t.Fatalf("lesson %s still holds erased %s: %v", id, c.Candidate, m.Taught(id))
			}
		}
	}
}

func TestConfigValidate(t *testing.T) {
	for _, c := range []rerank.Config{{Candidates: 1}, {Labelled: 3}, {Candidates: 4, Labelled: 6}, {Kernel: 1}, {Weight: -1}} {
		if _, err := rerank.New(c); err == nil {
			t.Errorf("%+v was accepted", c)
		}
	}
}

func holds(cs []rerank.Contribution, id string) bool {
	for _, c := range cs {
		if c.Candidate == id {
			return true
		}
	}
	return false
}
