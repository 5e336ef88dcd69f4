package weaviate

import (
	"maps"
	"slices"
	"testing"

	"github.com/cmem/cmem/vectors/vectorstest"
)

// Search re-checks every hit against the allowed sets, which would hide a
// wrong where filter from the contract suite (as slower, retried queries).
// This test looks at what the server answers to the filter alone.
// It runs over both query paths: gRPC (CONTAINS_NONE) and GraphQL
// (Not(ContainsAny)).
func TestPushdownFilterAlone(t *testing.T) {
	t.Run("gRPC", func(t *testing.T) { pushdownFilterAlone(t, open(t, Config{Dims: 16})) })
	t.Run("GraphQL", func(t *testing.T) {
		s := open(t, Config{Dims: 16})
		s.search = nil
		pushdownFilterAlone(t, s)
	})
}

func pushdownFilterAlone(t *testing.T, s *Store) {
	const dims, n, filters = 16, 300, 40
	g := vectorstest.NewGen(5, dims, vectorstest.SmallMix)
	ref := vectorstest.NewReference()
	fs := g.Fragments(n)
	if err := s.Upsert(t.Context(), fs); err != nil {
		t.Fatal(err)
	}
	ref.Upsert(fs)
	for i := range filters {
		f := g.Filter([]float64{0.3, 0.6, 0.9}[i%3])
		match := ref.MatchSet(f)
		raw, err := s.nearVector(t.Context(), g.Vector(), &f, len(match)+5)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, h := range raw {
			if !match[h.ID] {
				m, _ := ref.Fragment(h.ID)
				t.Fatalf("filter %+v: the server returned %s (tier %s, user %s, agents %v, resources %v)",
					f, h.ID, m.Tier, m.User, m.Agents, m.Resources)
			}
			got = append(got, h.ID)
		}
		if want := slices.Sorted(maps.Keys(match)); !slices.Equal(slices.Sorted(slices.Values(got)), want) {
			t.Fatalf("filter %+v: server returned %d of %d matches", f, len(got), len(want))
		}
	}
}
