package weaviate

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/cmem/cmem/vectors"
	"github.com/cmem/cmem/vectors/vectorstest"
)

// TestReaderLabelsContract runs the store contract with reader labels on.
func TestReaderLabelsContract(t *testing.T) {
	vectorstest.Run(t, func(t *testing.T, dims int) vectors.Store {
		return open(t, Config{Dims: dims})
	})
}

// TestReaderLabelsStale revokes an agent from a reader whose class is
// ready, then searches while the new class's materialisation is held
// back: the answer must be exactly what the reader may now read, through
// the exclusion filter. Searching through the new, unmaterialised label
// instead (no fallback) returns too little; through the old one, too much.
func TestReaderLabelsStale(t *testing.T) {
	s := open(t, Config{Dims: 4})
	ref := vectorstest.NewReference()
	frag := func(n int, agents ...string) vectors.Fragment {
		v := []float32{1, float32(n) / 10, 0, 0}
		return vectors.Fragment{ID: uuidN(n), Key: "k", Value: "v", Tier: "shared", User: "u", Agents: agents, Vector: v}
	}
	fs := []vectors.Fragment{frag(1, "a"), frag(2, "a", "b"), frag(3, "b"), frag(4, "a"), frag(5, "c")}
	upsertBoth(t, s, ref, fs...)
	q := []float32{1, 0, 0, 0}
	before := vectors.NewFilter("shared", "u", []string{"a", "b"}, []string{"a", "b", "c"}, nil, nil)
	searchExact(t, s, ref, q, before, "first search (registers the class)")
	waitReady(t, s, before, time.Minute)
	served := s.labels.searches.Load()
	searchExact(t, s, ref, q, before, "through the ready label")
	if s.labels.searches.Load() == served {
		t.Fatal("a ready class was not searched through its label")
	}

	release := blockPasses(t, s)
	after := vectors.NewFilter("shared", "u", []string{"a"}, []string{"a", "b", "c"}, nil, nil)
	searchExact(t, s, ref, q, after, "revoked, before the relabel")
	// A fragment written while the pass is held back is labelled by its
	// upsert for both classes, and one moved out of both loses their
	// labels: the ready class still answers through its label (a stale
	// label would surface a hit the check in Go rejects, and the search
	// would fall back).
	upsertBoth(t, s, ref, frag(6, "a"), frag(1, "c"))
	searchExact(t, s, ref, q, after, "revoked, writes during the relabel")
	served = s.labels.searches.Load()
	searchExact(t, s, ref, q, before, "old class, writes during the relabel")
	if got := s.labels.searches.Load() - served; got != 2 {
		t.Fatalf("%d of 2 searches of the ready class went through its label", got)
	}
	release()
	waitReady(t, s, after, time.Minute)
	served = s.labels.searches.Load()
	searchExact(t, s, ref, q, after, "revoked, through the new label")
	if s.labels.searches.Load() == served {
		t.Fatal("the revoked reader's class was not searched through its label once ready")
	}
}

// TestReaderLabelsChurnDifferential compares Search and HybridSearch with
// reader labels on against the reference model (and the hybrid top 5
// against the exclusion filter's) under churn (inserts, replacements that
// move fragments between tiers, users and provenance, deletions), with a
// fixed population of readers whose classes become ready and then change
// by revocation, so that both the label path and the fallback serve.
func TestReaderLabelsChurnDifferential(t *testing.T) {
	const seed, d, rounds = 20251128, 16, 5
	t.Logf("seed %d", seed)
	g := vectorstest.NewGen(seed, d, vectorstest.SmallMix)
	s := open(t, Config{Dims: d})
	excl := &Store{cfg: s.cfg, client: s.client, search: s.search} // the exclusion filter on the same class
	ref := vectorstest.NewReference()
	var readers []vectors.Filter
	for i := range 12 {
		readers = append(readers, g.Filter([]float64{0.3, 0.6, 0.9, 1}[i%4]))
	}
	var live []string
	for round := range rounds {
		fs := g.Fragments(150)
		for i := 0; i < len(live) && i < 30; i++ {
			f := g.Fragment()
			f.ID = live[g.IntN(len(live))]
			fs = append(fs, f)
		}
		g.WithText(fs)
		fs = vectorstest.LastByID(fs)
		upsertBoth(t, s, ref, fs...)
		for _, f := range fs {
			if !slices.Contains(live, f.ID) {
				live = append(live, f.ID)
			}
		}
		var del []string
		for range 20 {
			del = append(del, live[g.IntN(len(live))])
		}
		if err := s.Delete(t.Context(), del); err != nil {
			t.Fatal(err)
		}
		ref.Delete(del)
		live = slices.DeleteFunc(live, func(id string) bool { return slices.Contains(del, id) })
		// One reader loses an allowed agent: a new class, not ready yet.
		r := &readers[round%len(readers)]
		if len(r.AllowedAgents) > 0 {
			r.AllowedAgents = r.AllowedAgents[1:]
		}
		for i, f := range readers {
			q := vectors.Query{Text: g.Text(1 + g.IntN(3)), Vector: g.Vector()}
			searchExact(t, s, ref, q.Vector, f, fmt.Sprintf("round %d reader %d", round, i))
			hybridExact(t, s, excl, ref, q, f, fmt.Sprintf("round %d reader %d", round, i))
		}
		if round == 0 {
			for _, f := range readers {
				waitReady(t, s, f, time.Minute)
			}
		}
	}
	if n := s.labels.searches.Load(); n < 8*int64(len(readers)) {
		t.Fatalf("only %d searches went through labels: the test does not exercise them", n)
	}
}

// TestLeasedSharesReaderLabels: a leased class is written by whichever
// process holds the lease, so Leased makes the Store under it (found
// through Unwrap, as under a sealed store) share its labels through the
// class: without the lease it never materialises, and it searches
// exactly.
func TestLeasedSharesReaderLabels(t *testing.T) {
	s := open(t, Config{Dims: 4})
	l := Leased(wrapped{s}, nil, 0)
	s.labels.mu.RLock()
	shared, lease := s.labels.shared, s.labels.lease
	s.labels.mu.RUnlock()
	if !shared || lease != nil {
		t.Fatalf("Leased left the Store under the wrapper unshared (%v) or with a lease (%v)", shared, lease)
	}
	ref := vectorstest.NewReference()
	upsertBoth(t, s, ref, vectors.Fragment{ID: uuidN(1), Tier: "shared", Agents: []string{"a"}, Vector: []float32{1, 0, 0, 0}})
	f := vectors.NewFilter("shared", "u", []string{"a"}, []string{"a"}, nil, nil)
	hits, err := l.Search(t.Context(), []float32{1, 0, 0, 0}, f, 3)
	if err != nil || len(hits) != 1 {
		t.Fatalf("Search through the leased store: %v, %v", hits, err)
	}
	searchExact(t, s, ref, []float32{1, 0, 0, 0}, f, "a shared Store without the lease")
	if n := s.labels.passes.Load(); n != 0 {
		t.Fatalf("a Store without the lease ran %d materialisation passes", n)
	}
}

// wrapped stands for a store that wraps the Store (a sealed one).
type wrapped struct{ *Store }

func (w wrapped) Unwrap() vectors.Store { return w.Store }
