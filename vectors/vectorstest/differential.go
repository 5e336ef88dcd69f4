package vectorstest

import (
	"maps"
	"math"
	"slices"
	"testing"

	"github.com/cmem/cmem/vectors"
)

// testDifferential checks a store against the Reference on a random
// universe: every hit must satisfy its filter, and a k that covers every
// match must return exactly the matching set, whatever the backend's index.
func testDifferential(t *testing.T, newStore NewStore) {
	const (
		seed      = 20250601
		d         = 32
		fragments = 500
		filters   = 80
	)
	t.Logf("seed %d", seed)
	g := NewGen(seed, d, SmallMix)
	s := newStore(t, d)
	ref := NewReference()

	fs := g.Fragments(fragments)
	for b := 0; b < len(fs); b += 128 {
		batch := fs[b:min(b+128, len(fs))]
		upsert(t, s, batch...)
		ref.Upsert(batch)
	}
	// Rewrite a tenth of them with new provenance, tier and vector: a
	// replacement must leave no trace of the old version.
	var again []vectors.Fragment
	for i := 0; i < fragments; i += 10 {
		f := g.Fragment()
		f.ID = fs[i].ID
		again = append(again, f)
	}
	upsert(t, s, again...)
	ref.Upsert(again)
	if n := count(t, s); n != ref.Len() {
		t.Fatalf("Count = %d, want %d", n, ref.Len())
	}

	allows := []float64{0.25, 0.5, 0.75, 1}
	nonEmpty := 0
	for i := range filters {
		f := g.Filter(allows[i%len(allows)])
		q := g.Vector()
		match := ref.MatchSet(f)
		if len(match) > 0 {
			nonEmpty++
		}
		hits := search(t, s, q, f, len(match)+3)
		checkHits(t, ref, q, f, hits)
		got := ids(hits)
		if want := slices.Sorted(maps.Keys(match)); !sameSet(got, want) {
			t.Fatalf("filter %d %+v: k covers all %d matches, got %d hits\n got %v\nwant %v",
				i, f, len(match), len(hits), slices.Sorted(slices.Values(got)), want)
		}
		small := search(t, s, q, f, 5)
		checkHits(t, ref, q, f, small)
		if len(small) != min(5, len(match)) {
			t.Fatalf("filter %d: k=5 with %d matches gave %d hits", i, len(match), len(small))
		}
	}
	if nonEmpty < filters/2 {
		t.Fatalf("only %d of %d random filters matched anything: the test is too weak", nonEmpty, filters)
	}
}

// checkHits asserts that every hit matches f per the reference, carries the
// reference's provenance and a correct score, and that hits are best first.
func checkHits(t *testing.T, ref *Reference, q []float32, f vectors.Filter, hits []vectors.Hit) {
	t.Helper()
	noDuplicates(t, hits)
	for i, h := range hits {
		m := mustFragment(t, ref, h.ID)
		if !Matches(m, f) {
			t.Fatalf("hit %s (tier %s, user %s, agents %v, resources %v) does not match filter %+v",
				h.ID, m.Tier, m.User, m.Agents, m.Resources, f)
		}
		if err := equalFragment(h.Fragment, m, false); err != nil {
			t.Fatalf("hit %s: %v", h.ID, err)
		}
		if exact := Cosine(q, m.Vector); math.Abs(float64(h.Score)-exact) > 1e-4 {
			t.Fatalf("hit %s: score %v, cosine is %v", h.ID, h.Score, exact)
		}
		if i > 0 && (h.Score > hits[i-1].Score || h.Score == hits[i-1].Score && h.ID < hits[i-1].ID) {
			t.Fatalf("hits out of order at %d: (%v, %s) after (%v, %s)", i, h.Score, h.ID, hits[i-1].Score, hits[i-1].ID)
		}
	}
}

// CheckExactTopK asserts that hits are the reference's exact top k, in
// order. Two candidates whose exact cosines differ by less than tol may
// trade places: float32 arithmetic cannot order them reliably.
func CheckExactTopK(t *testing.T, ref *Reference, q []float32, f vectors.Filter, k int, hits []vectors.Hit, tol float64) {
	t.Helper()
	want := ref.Search(q, f, k)
	if len(hits) != len(want) {
		t.Fatalf("got %d hits, reference has %d", len(hits), len(want))
	}
	for i, h := range hits {
		if h.ID == want[i].ID {
			continue
		}
		got := Cosine(q, mustFragment(t, ref, h.ID).Vector)
		if math.Abs(got-want[i].Score) > tol {
			t.Fatalf("rank %d: got %s (cosine %v), want %s (cosine %v)", i, h.ID, got, want[i].ID, want[i].Score)
		}
	}
	noDuplicates(t, hits)
}

func noDuplicates(t *testing.T, hits []vectors.Hit) {
	t.Helper()
	seen := map[string]bool{}
	for _, h := range hits {
		if seen[h.ID] {
			t.Fatalf("fragment %s returned twice", h.ID)
		}
		seen[h.ID] = true
	}
}
