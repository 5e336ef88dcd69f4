package vectorstest

import (
	"maps"
	"math"
	"slices"
	"testing"

	"github.com/cmem/cmem/vectors"
)

// HybridOptions says how closely a backend follows the Reference's
// hybrid ranking.
type HybridOptions struct {
	// Exact: the backend computes vectors.HybridScore itself (inmem), so
	// its hits must be the Reference's top k with the same scores. A
	// backend that fuses with its own engine (Weaviate's BM25F and
	// fusion) is held to everything else: the filter, the match set, the
	// order of its own scores, and lexical and vector evidence each
	// finding what they should.
	Exact bool
}

// RunHybrid runs the hybrid-search contract against the backend newStore
// builds, which must implement vectors.HybridSearcher.
func RunHybrid(t *testing.T, newStore NewStore, o HybridOptions) {
	tests := []struct {
		name string
		fn   func(*testing.T, NewStore, HybridOptions)
	}{
		{"LexicalFindsWhatVectorsMiss", testHybridLexical},
		{"FilterBeforeRanking", testHybridFilter},
		{"OneHitPerFragment", testHybridChunks},
		{"RandomChurnDifferential", testHybridDifferential},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { tc.fn(t, newStore, o) })
	}
}

func hybrid(t *testing.T, s vectors.Store) vectors.HybridSearcher {
	t.Helper()
	h, ok := s.(vectors.HybridSearcher)
	if !ok {
		t.Fatalf("%T does not implement vectors.HybridSearcher", s)
	}
	return h
}

func hsearch(t *testing.T, s vectors.Store, q vectors.Query, f vectors.Filter, k int) []vectors.Hit {
	t.Helper()
	hits, err := hybrid(t, s).HybridSearch(t.Context(), q, f, k)
	if err != nil {
		t.Fatalf("HybridSearch(%q, %+v, k=%d): %v", q.Text, f, k, err)
	}
	return hits
}

// testHybridLexical: among fragments whose vectors are all about as far
// from the query's (cosines 0.1–0.3), the one whose value holds the
// query's rare words comes first; with no shared word, the nearest vector
// does.
func testHybridLexical(t *testing.T, newStore NewStore, _ HybridOptions) {
	s := newStore(t, dims)
	near := func(c float64, axis int) []float32 { // cosine c to unit(0)
		v := make([]float32, dims)
		v[0], v[axis] = float32(c), float32(math.Sqrt(1-c*c))
		return v
	}
	// Fillers of equal length, so that only their vectors tell them apart.
	fillers := []string{"harbour", "orchard", "train", "bakery"}
	var fs []vectors.Fragment
	for n := 2; n <= 21; n++ {
		f := frag(n, "shared", "u", []string{"a"}, nil, near(0.1+0.2*float64(n-2)/19, 1+n%(dims-1)))
		f.Key, f.Value = "note", "It rained all week near the "+fillers[n%len(fillers)]+" and we stayed in."
		fs = append(fs, f)
	}
	target := frag(1, "shared", "u", []string{"a"}, nil, near(0.2, 1))
	target.Key, target.Value = "lumen cooperative", "The third quarter revenue of Lumen cooperative was 41 million credits."
	upsert(t, s, append(fs, target)...)
	f := filter("shared", "u", []string{"a"}, nil)
	hits := hsearch(t, s, vectors.Query{Text: "What was Lumen's revenue?", Vector: unit(0)}, f, 5)
	if len(hits) != 5 || hits[0].ID != id(1) {
		t.Fatalf("lexical match: got %v, want %s first", ids(hits), id(1))
	}
	hits = hsearch(t, s, vectors.Query{Text: "zzz qqq", Vector: unit(0)}, f, 5)
	if len(hits) != 5 || hits[0].ID != id(21) || hits[1].ID != id(20) {
		t.Fatalf("no shared word: got %v, want the nearest vectors %s, %s first", ids(hits), id(21), id(20))
	}
}

// testHybridFilter: the best lexical and vector matches are all outside
// the filter; a search still returns k admissible fragments, never one of
// them (the filter is applied before ranking, not after).
func testHybridFilter(t *testing.T, newStore NewStore, _ HybridOptions) {
	s := newStore(t, dims)
	var fs []vectors.Fragment
	for n := 1; n <= 30; n++ {
		agents := []string{"b"} // hidden
		text := "secret launch codes for the glacier tunnel"
		if n > 20 {
			agents, text = []string{"a"}, "notes about the tunnel and the weather"
		}
		f := frag(n, "shared", "u", agents, nil, unit(0))
		f.Value = text
		fs = append(fs, f)
	}
	upsert(t, s, fs...)
	f := filter("shared", "u", []string{"a"}, nil)
	hits := hsearch(t, s, vectors.Query{Text: "secret launch codes glacier tunnel", Vector: unit(0)}, f, 5)
	if len(hits) != 5 {
		t.Fatalf("got %d hits, want 5 admissible ones", len(hits))
	}
	for _, h := range hits {
		if !slices.Equal(h.Agents, []string{"a"}) {
			t.Fatalf("hit %s needs %v, outside the filter", h.ID, h.Agents)
		}
	}
	// Private fragments of another user never appear, however well they match.
	p := frag(99, "private", "v", []string{"a"}, nil, unit(0))
	p.Value = "secret launch codes glacier tunnel"
	upsert(t, s, p)
	for _, h := range hsearch(t, s, vectors.Query{Text: "secret launch codes", Vector: unit(0)}, filter("private", "u", []string{"a"}, nil), 5) {
		t.Fatalf("u's private view returned %s of user %s", h.ID, h.User)
	}
}

// testHybridChunks: a long value is indexed in chunks; a query matching
// several of them returns the fragment once.
func testHybridChunks(t *testing.T, newStore NewStore, _ HybridOptions) {
	s := newStore(t, dims)
	long := frag(1, "shared", "u", []string{"a"}, nil, unit(1))
	g := NewGen(5, dims, SmallMix)
	long.Value = g.Text(vectors.ChunkTokens) + " lighthouse keeper " + g.Text(vectors.ChunkTokens) + " lighthouse keeper " + g.Text(50)
	short := frag(2, "shared", "u", []string{"a"}, nil, unit(1))
	short.Value = "lighthouse keeper notes"
	upsert(t, s, long, short)
	if n := len(vectors.Chunks(long.Key, long.Value)); n < 3 {
		t.Fatalf("the long value makes %d chunks; the test needs several", n)
	}
	hits := hsearch(t, s, vectors.Query{Text: "lighthouse keeper", Vector: unit(0)}, filter("shared", "u", []string{"a"}, nil), 10)
	if got := ids(hits); !sameSet(got, []string{id(1), id(2)}) {
		t.Fatalf("got %v, want each fragment once", got)
	}
	noDuplicates(t, hits)
}

// testHybridDifferential checks hybrid search against the Reference under
// random churn (inserts, replacements that move fragments between tiers
// and users, deletions): every hit matches its filter, a k covering every
// match returns exactly the matching set, hits are best first, and, for an
// exact backend, they are the Reference's top k.
func testHybridDifferential(t *testing.T, newStore NewStore, o HybridOptions) {
	const (
		seed   = 20251124
		d      = 16
		rounds = 6
	)
	t.Logf("seed %d", seed)
	g := NewGen(seed, d, SmallMix)
	s := newStore(t, d)
	ref := NewReference()
	var live []string
	nonEmpty := 0
	for round := range rounds {
		fs := g.Fragments(120)
		g.WithText(fs)
		// Replace some live fragments with new text, tier and provenance.
		for i := 0; i < len(live) && i < 25; i++ {
			f := g.Fragment()
			f.ID = live[g.IntN(len(live))]
			g.WithText([]vectors.Fragment{f}[:1])
			fs = append(fs, f)
		}
		fs = LastByID(fs)
		upsert(t, s, fs...)
		ref.Upsert(fs)
		for _, f := range fs {
			if !slices.Contains(live, f.ID) {
				live = append(live, f.ID)
			}
		}
		var del []string
		for range 15 {
			del = append(del, live[g.IntN(len(live))])
		}
		if err := s.Delete(t.Context(), del); err != nil {
			t.Fatalf("Delete: %v", err)
		}
		ref.Delete(del)
		live = slices.DeleteFunc(live, func(id string) bool { return slices.Contains(del, id) })

		for i := range 20 {
			f := g.Filter([]float64{0.3, 0.6, 0.9, 1}[i%4])
			q := vectors.Query{Text: g.Text(1 + g.IntN(4)), Vector: g.Vector()}
			match := ref.MatchSet(f)
			if len(match) > 0 {
				nonEmpty++
			}
			for _, k := range []int{5, len(match) + 3} {
				hits := hsearch(t, s, q, f, k)
				checkHybridHits(t, ref, q, f, hits)
				if len(hits) != min(k, len(match)) {
					t.Fatalf("round %d query %q k=%d: %d hits, %d fragments match", round, q.Text, k, len(hits), len(match))
				}
				if k > len(match) {
					if want := slices.Sorted(maps.Keys(match)); !sameSet(ids(hits), want) {
						t.Fatalf("round %d: k covers all %d matches:\n got %v\nwant %v", round, len(match), ids(hits), want)
					}
				}
				if o.Exact {
					checkHybridExact(t, ref, q, f, k, hits)
				}
			}
		}
	}
	if nonEmpty < rounds*10 {
		t.Fatalf("only %d random filters matched anything: the test is too weak", nonEmpty)
	}
}

// LastByID keeps the last version of each id, in first-seen order: what a
// store holds after upserting fs in order.
func LastByID(fs []vectors.Fragment) []vectors.Fragment {
	seen := map[string]int{}
	var out []vectors.Fragment
	for _, f := range fs {
		if i, ok := seen[f.ID]; ok {
			out[i] = f
			continue
		}
		seen[f.ID] = len(out)
		out = append(out, f)
	}
	return out
}

// checkHybridHits asserts every hit matches f and carries the Reference's
// fragment, once, best first, with its cosine to the query.
func checkHybridHits(t *testing.T, ref *Reference, q vectors.Query, f vectors.Filter, hits []vectors.Hit) {
	t.Helper()
	noDuplicates(t, hits)
	for i, h := range hits {
		m := mustFragment(t, ref, h.ID)
		if !Matches(m, f) {
			t.Fatalf("hybrid hit %s (tier %s, user %s, agents %v, resources %v) does not match filter %+v",
				h.ID, m.Tier, m.User, m.Agents, m.Resources, f)
		}
		if err := equalFragment(h.Fragment, m, false); err != nil {
			t.Fatalf("hybrid hit %s: %v", h.ID, err)
		}
		if exact := Cosine(q.Vector, m.Vector); math.Abs(float64(h.Cosine)-exact) > 1e-4 {
			t.Fatalf("hybrid hit %s: Cosine %v, cosine is %v", h.ID, h.Cosine, exact)
		}
		if i > 0 && h.Score > hits[i-1].Score {
			t.Fatalf("hybrid hits out of order at %d: %v after %v", i, h.Score, hits[i-1].Score)
		}
	}
}

// checkHybridExact asserts hits are the Reference's hybrid top k: the same
// fragments with the same scores, in order; two whose scores differ by
// less than float32 rounding may trade places.
func checkHybridExact(t *testing.T, ref *Reference, q vectors.Query, f vectors.Filter, k int, hits []vectors.Hit) {
	t.Helper()
	const tol = 1e-5
	want := ref.HybridSearch(q, f, k)
	if len(hits) != len(want) {
		t.Fatalf("query %q: %d hybrid hits, reference has %d", q.Text, len(hits), len(want))
	}
	for i, h := range hits {
		if math.Abs(float64(h.Score)-want[i].Score) > tol {
			t.Fatalf("query %q rank %d: got %s score %v, reference %s score %v\n got %v\nwant %v",
				q.Text, i, h.ID, h.Score, want[i].ID, want[i].Score, ids(hits), want)
		}
	}
}
