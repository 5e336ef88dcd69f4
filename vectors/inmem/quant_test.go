package inmem_test

import (
	"fmt"
	"testing"

	"github.com/cmem/cmem/vectors"
	"github.com/cmem/cmem/vectors/vectorstest"
)

// The scan ranks on int8 codes and rescores only the rows whose bound can
// reach the top k. Here every fragment is one vector plus noise far below
// the quantisation step, so all codes are nearly equal and only the
// rescoring can order them; fragments with more ids than a row's inline
// slots (checked on their bitsets) and inadmissible near-duplicates are
// mixed in. The answer must still be the exact top k, and no inadmissible
// fragment may appear in it.
func TestExactTopKUnderQuantisationNoise(t *testing.T) {
	const dims, n = 64, 20000 // past parallelRows: striped
	g := vectorstest.NewGen(7, dims, vectorstest.Mix{Agents: 12, Resources: 12, Users: 2, MaxAgents: 3, MaxResources: 3})
	base := g.Vector()
	s := newStore(t, dims)
	ref := vectorstest.NewReference()
	fs := make([]vectors.Fragment, n)
	for i := range fs {
		f := g.Fragment()
		f.Tier = "shared"
		for d := range f.Vector {
			f.Vector[d] = base[d] + 1e-4*f.Vector[d]
		}
		if i%97 == 0 { // more ids than inline slots
			f.Agents, f.Resources = g.Agents[:6], g.Resources[:6]
		}
		fs[i] = f
	}
	if err := s.Upsert(t.Context(), fs); err != nil {
		t.Fatal(err)
	}
	ref.Upsert(fs)
	for i := range 40 {
		f := g.Filter([]float64{0.5, 0.8, 1}[i%3])
		f.Tier = "shared"
		q := g.Vector()
		for d := range q {
			q[d] = base[d] + 1e-3*q[d]
		}
		k := []int{1, 10, 50}[i%3]
		hits, err := s.Search(t.Context(), q, f, k)
		if err != nil {
			t.Fatal(err)
		}
		for _, h := range hits {
			if !vectorstest.Matches(h.Fragment, f) {
				t.Fatalf("query %d: inadmissible fragment %s returned", i, h.ID)
			}
		}
		t.Run(fmt.Sprint(i), func(t *testing.T) { vectorstest.CheckExactTopK(t, ref, q, f, k, hits, 1e-7) })
	}
}
