package weaviate

import (
	"maps"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/cmem/cmem/vectors"
	"github.com/cmem/cmem/vectors/vectorstest"
)

// Filters whose resource exclusion list is longer than maxPushedExclusions
// are checked here on over-fetched candidates, with a fallback to the full
// server-side filter. Both outcomes must be exactly what the reference
// says: the full matching set when k covers it, the exact top 5 otherwise.
func TestLongExclusionListsArePostFiltered(t *testing.T) {
	const dims, n = 32, 600
	s := open(t, Config{Dims: dims, ExclusionFilter: true}) // the path under test
	mix := vectorstest.Mix{Agents: 6, Resources: 80, Users: 4, MaxAgents: 2, MaxResources: 3, PrivateFrac: 0.3}
	g := vectorstest.NewGen(7, dims, mix)
	ref := vectorstest.NewReference()
	fs := g.Fragments(n)
	for i := range fs {
		// Every fragment needs a resource, so that a selective resource
		// filter really is selective (a fragment without one always passes).
		if len(fs[i].Resources) == 0 {
			fs[i].Resources = []string{g.Resources[g.IntN(len(g.Resources))]}
		}
	}
	if err := s.Upsert(t.Context(), fs); err != nil {
		t.Fatal(err)
	}
	ref.Upsert(fs)
	long, nonEmpty := 0, 0
	rng := rand.New(rand.NewPCG(3, 5))
	for i := range 80 {
		f := g.Filter([]float64{0.1, 0.4, 0.7, 0.9}[i%4])
		if i%2 == 1 {
			// Every agent allowed, few resources: the server's candidates
			// are the whole tier and few of them pass here, so the
			// over-fetch runs short and must ask again or fall back.
			var res []string
			for _, r := range g.Resources {
				if rng.Float64() < 0.08 {
					res = append(res, r)
				}
			}
			f = vectors.NewFilter(f.Tier, f.User, g.Agents, g.Agents, res, g.Resources)
		}
		if len(f.ExcludedResources) > maxPushedExclusions {
			long++
		}
		q := g.Vector()
		match := ref.MatchSet(f)
		if len(match) > 0 {
			nonEmpty++
		}
		all, err := s.Search(t.Context(), q, f, len(match)+3)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, h := range all {
			got = append(got, h.ID)
		}
		slices.Sort(got)
		if want := slices.Sorted(maps.Keys(match)); !slices.Equal(got, want) {
			t.Fatalf("filter %d (%d excluded resources): got %d hits, want the %d matches", i, len(f.ExcludedResources), len(got), len(want))
		}
		top, err := s.Search(t.Context(), q, f, 5)
		if err != nil {
			t.Fatal(err)
		}
		vectorstest.CheckExactTopK(t, ref, q, f, 5, top, 1e-6)
	}
	if long < 40 || nonEmpty < 40 {
		t.Fatalf("only %d filters with long exclusion lists, %d non-empty: the test does not reach the post-filter", long, nonEmpty)
	}
}
