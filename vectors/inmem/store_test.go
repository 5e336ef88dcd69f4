package inmem_test

import (
	"errors"
	"math"
	"testing"

	"github.com/cmem/cmem/vectors"
	"github.com/cmem/cmem/vectors/inmem"
	"github.com/cmem/cmem/vectors/vectorstest"
)

func newStore(t *testing.T, dims int) vectors.Store {
	t.Helper()
	s, err := inmem.New(dims)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	t.Cleanup(func() {
		if err := s.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return s
}

func TestContract(t *testing.T) {
	vectorstest.Run(t, newStore)
}

// The embedded store is exact: its top k is the brute-force top k, in
// order, for every filter, including after replacements moved fragments
// between partitions and widened the bitsets.
func TestExactTopK(t *testing.T) {
	exactTopK(t, 2000, 0.4, 200)
}

// A partition past parallelRows is searched in stripes, one per CPU; the
// merged top-k must be the exact one.
func TestExactTopKInStripes(t *testing.T) {
	exactTopK(t, 20000, 0.05, 30)
}

func exactTopK(t *testing.T, n int, privateFrac float64, queries int) {
	const dims = 32
	g := vectorstest.NewGen(99, dims, vectorstest.Mix{
		Agents: 150, Resources: 300, Users: 6, MaxAgents: 3, MaxResources: 3, PrivateFrac: privateFrac,
	})
	s := newStore(t, dims)
	ref := vectorstest.NewReference()
	fs := g.Fragments(n)
	for b := 0; b < len(fs); b += 1024 {
		batch := fs[b:min(b+1024, len(fs))]
		if err := s.Upsert(t.Context(), batch); err != nil {
			t.Fatal(err)
		}
		ref.Upsert(batch)
	}
	var again []vectors.Fragment
	for i := 0; i < len(fs); i += 7 {
		f := g.Fragment()
		f.ID = fs[i].ID
		again = append(again, f)
	}
	if err := s.Upsert(t.Context(), again); err != nil {
		t.Fatal(err)
	}
	ref.Upsert(again)

	for i := range queries {
		f := g.Filter([]float64{0.6, 0.9, 1}[i%3])
		q := g.Vector()
		k := []int{1, 10, 50}[i%3]
		hits, err := s.Search(t.Context(), q, f, k)
		if err != nil {
			t.Fatal(err)
		}
		vectorstest.CheckExactTopK(t, ref, q, f, k, hits, 1e-6)
	}
}

func TestNewRejectsNonPositiveDims(t *testing.T) {
	if _, err := inmem.New(0); err == nil {
		t.Fatal("New(0) succeeded")
	}
}

func TestClosed(t *testing.T) {
	s, err := inmem.New(4)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Count(t.Context()); !errors.Is(err, inmem.ErrClosed) {
		t.Fatalf("Count after Close: %v, want ErrClosed", err)
	}
}

func TestRejectsNonFiniteVectors(t *testing.T) {
	s := newStore(t, 2)
	nan := float32(math.NaN())
	err := s.Upsert(t.Context(), []vectors.Fragment{{ID: "x", Tier: "shared", Agents: []string{"a"}, Vector: []float32{1, nan}}})
	if err == nil {
		t.Fatal("Upsert of a NaN vector succeeded")
	}
	if _, err := s.Search(t.Context(), []float32{nan, 0}, vectors.Filter{Tier: "shared"}, 1); err == nil {
		t.Fatal("Search with a NaN vector succeeded")
	}
}

func TestHybridContract(t *testing.T) {
	vectorstest.RunHybrid(t, newStore, vectorstest.HybridOptions{Exact: true})
}

// TestHybridExactInBlocks: a hybrid search of a partition large enough to
// be scanned by several workers, its lexical side running alongside, and
// re-upserted fragments (dead text slots whose numbers are reused) equals
// the Reference's, score for score.
func TestHybridExactInBlocks(t *testing.T) {
	const dims = 32
	g := vectorstest.NewGen(98, dims, vectorstest.Mix{
		Agents: 150, Resources: 300, Users: 6, MaxAgents: 3, MaxResources: 3, PrivateFrac: 0.05,
	})
	s := newStore(t, dims)
	ref := vectorstest.NewReference()
	fs := g.Fragments(20000)
	g.WithBenchText(fs)
	for b := 0; b < len(fs); b += 1024 {
		batch := fs[b:min(b+1024, len(fs))]
		if err := s.Upsert(t.Context(), batch); err != nil {
			t.Fatal(err)
		}
		ref.Upsert(batch)
	}
	var again []vectors.Fragment
	for i := 0; i < len(fs); i += 7 {
		f := g.Fragment()
		f.ID = fs[i].ID
		again = append(again, f)
	}
	g.WithBenchText(again)
	if err := s.Upsert(t.Context(), again); err != nil {
		t.Fatal(err)
	}
	ref.Upsert(again)
	for i := range 12 {
		f := g.Filter([]float64{0.6, 0.9, 1}[i%3])
		q := vectors.Query{Text: g.BenchText(3 + i%5), Vector: g.Vector()}
		k := []int{1, 10, 30}[i%3]
		hits, err := s.(vectors.HybridSearcher).HybridSearch(t.Context(), q, f, k)
		if err != nil {
			t.Fatal(err)
		}
		want := ref.HybridSearch(q, f, k)
		if len(hits) != len(want) || len(hits) == 0 {
			t.Fatalf("query %q: %d hits, reference %d", q.Text, len(hits), len(want))
		}
		for j, h := range hits {
			if h.ID != want[j].ID || math.Abs(float64(h.Score)-want[j].Score) > 1e-5 {
				t.Fatalf("query %q rank %d: %s %v, reference %s %v", q.Text, j, h.ID, h.Score, want[j].ID, want[j].Score)
			}
		}
	}
}
