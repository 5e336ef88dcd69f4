package weaviate

import (
	"cmp"
	"context"
	"fmt"
	"slices"

	"github.com/weaviate/weaviate-go-client/v4/weaviate/filters"
	"github.com/weaviate/weaviate-go-client/v4/weaviate/graphql"

	"github.com/cmem/cmem/vectors"
)

// tieSlack is how many results beyond k Search asks for, so that fragments
// tied with the k-th are all seen before the tie-break by id.
const tieSlack = 8

// Search runs a filtered nearVector query and returns up to k hits, best
// first, ties by ascending id.
func (s *Store) Search(ctx context.Context, vector []float32, f vectors.Filter, k int) ([]vectors.Hit, error) {
	if s.closed.Load() {
		return nil, ErrClosed
	}
	if len(vector) != s.cfg.Dims {
		return nil, fmt.Errorf("weaviate: query has %d dimensions, store has %d: %w",
			len(vector), s.cfg.Dims, vectors.ErrDimension)
	}
	if k <= 0 {
		return []vectors.Hit{}, nil
	}
	allowed := newAllowed(f)
	if hits, ok, err := s.labelled(ctx, vector, f, allowed, k); ok || err != nil {
		return hits, err
	}
	want := k + tieSlack
	// A long exclusion list makes the server's filter cost in proportion
	// to its length (≈9 ms for 400 ids at 10k fragments). Such a clause is
	// checked here instead, on an over-fetched candidate list, and pushed
	// down after all only if the candidates run short.
	if len(f.ExcludedResources) > maxPushedExclusions {
		hits, enough, err := s.postFiltered(ctx, vector, f, allowed, want)
		if err != nil || enough {
			return hits[:min(k, len(hits))], err
		}
	}
	return s.pushedDown(ctx, vector, f, allowed, k)
}

// maxPushedExclusions is the longest resource exclusion list sent to the
// server on the first try.
const maxPushedExclusions = 32

// postFiltered asks without the resource clause for a few times more
// candidates than needed and keeps the admissible ones. Candidates come
// best first, so once want of them are admissible (or the server has no
// more) they are exactly the best admissible ones; enough is false when
// the allowed share was too small to tell within two tries.
func (s *Store) postFiltered(ctx context.Context, vector []float32, f vectors.Filter, allowed allowed, want int) ([]vectors.Hit, bool, error) {
	loose := f
	loose.ExcludedResources = nil
	limit := min(4*want, s.cfg.MaxResults)
	for try := 0; try < 2; try++ {
		raw, err := s.nearVector(ctx, vector, &loose, limit)
		if err != nil {
			return nil, false, err
		}
		hits := raw[:0:0]
		for _, h := range raw {
			if allowed.admits(&h.Fragment) {
				hits = append(hits, h)
			}
		}
		if len(hits) >= want || len(raw) < limit {
			sortHits(hits)
			return hits, true, nil
		}
		if limit >= s.cfg.MaxResults {
			break
		}
		limit = min(limit*4, s.cfg.MaxResults)
	}
	return nil, false, nil
}

// pushedDown sends the whole filter to the server.
func (s *Store) pushedDown(ctx context.Context, vector []float32, f vectors.Filter, allowed allowed, k int) ([]vectors.Hit, error) {
	limit := min(k+tieSlack, s.cfg.MaxResults)
	for {
		raw, err := s.nearVector(ctx, vector, &f, limit)
		if err != nil {
			return nil, err
		}
		hits := raw[:0:0]
		for _, h := range raw {
			if allowed.admits(&h.Fragment) {
				hits = append(hits, h)
			}
		}
		// A hit dropped here means the filter's Excluded sets missed an id.
		// Ask again for more unless the server has nothing more to give.
		if dropped := len(raw) - len(hits); dropped > 0 {
			s.cfg.Logger.Warn("weaviate: hits outside the allowed sets; the filter's universe is incomplete",
				"class", s.cfg.Class, "dropped", dropped)
			if len(hits) < k && len(raw) == limit && limit < s.cfg.MaxResults {
				limit = min(limit*4, s.cfg.MaxResults)
				continue
			}
		}
		sortHits(hits)
		return hits[:min(k, len(hits))], nil
	}
}

// whereFor expresses f for Weaviate; see the package doc for why the
// negations are the subset test.
func whereFor(f vectors.Filter) *filters.WhereBuilder {
	ops := []*filters.WhereBuilder{
		filters.Where().WithPath([]string{propTier}).WithOperator(filters.Equal).WithValueText(f.Tier),
	}
	if f.Tier == "private" {
		ops = append(ops, filters.Where().WithPath([]string{propUser}).WithOperator(filters.Equal).WithValueText(f.User))
	}
	for _, ex := range exclusions(f) {
		ops = append(ops, filters.Where().WithOperator(filters.Not).WithOperands([]*filters.WhereBuilder{
			filters.Where().WithPath([]string{ex.prop}).WithOperator(filters.ContainsAny).WithValueText(ex.ids...),
		}))
	}
	if len(ops) == 1 {
		return ops[0]
	}
	return filters.Where().WithOperator(filters.And).WithOperands(ops)
}

// exclusion is one provenance property and the ids it must contain none of.
type exclusion struct {
	prop string
	ids  []string
}

// exclusions are f's non-empty exclusion lists, for either query path.
func exclusions(f vectors.Filter) []exclusion {
	var out []exclusion
	for _, ex := range []exclusion{{propAgents, f.ExcludedAgents}, {propResources, f.ExcludedResources}} {
		if len(ex.ids) > 0 {
			out = append(out, ex)
		}
	}
	return out
}

// nearVector runs the query, over gRPC when there is a connection; f may
// be nil (the unfiltered baseline of the benchmarks).
func (s *Store) nearVector(ctx context.Context, vector []float32, f *vectors.Filter, limit int) ([]vectors.Hit, error) {
	if s.search != nil {
		return s.nearVectorGRPC(ctx, vector, f, limit)
	}
	return s.nearVectorGraphQL(ctx, vector, f, limit)
}

// nearVectorGraphQL is nearVector without a gRPC connection.
func (s *Store) nearVectorGraphQL(ctx context.Context, vector []float32, f *vectors.Filter, limit int) ([]vectors.Hit, error) {
	if f == nil {
		return s.nearVectorWhere(ctx, vector, nil, limit)
	}
	return s.nearVectorWhere(ctx, vector, whereFor(*f), limit)
}

// nearVectorWhere is a GraphQL nearVector with the where clause w (nil:
// none).
func (s *Store) nearVectorWhere(ctx context.Context, vector []float32, w *filters.WhereBuilder, limit int) ([]vectors.Hit, error) {
	q := s.client.GraphQL().Get().WithClassName(s.cfg.Class).
		WithNearVector(s.client.GraphQL().NearVectorArgBuilder().WithVector(vector)).
		WithLimit(limit).
		WithFields(append(fragmentFields(), graphql.Field{Name: "_additional", Fields: []graphql.Field{{Name: "id"}, {Name: "distance"}}})...)
	if w != nil {
		q = q.WithWhere(w)
	}
	resp, err := q.Do(ctx)
	if err != nil {
		return nil, fmt.Errorf("weaviate: nearVector: %w", err)
	}
	objs, err := getObjects(resp, s.cfg.Class)
	if err != nil {
		return nil, fmt.Errorf("weaviate: nearVector: %w", err)
	}
	hits := make([]vectors.Hit, 0, len(objs))
	for _, o := range objs {
		f, err := decodeFragment(o)
		if err != nil {
			return nil, fmt.Errorf("weaviate: nearVector: %w", err)
		}
		dist, err := additionalFloat(o, "distance")
		if err != nil {
			return nil, fmt.Errorf("weaviate: nearVector: fragment %s: %w", f.ID, err)
		}
		hits = append(hits, vectors.Hit{Fragment: f, Score: float32(1 - dist)})
	}
	return hits, nil
}

func sortHits(hits []vectors.Hit) {
	slices.SortFunc(hits, func(a, b vectors.Hit) int {
		if c := cmp.Compare(b.Score, a.Score); c != 0 {
			return c
		}
		return cmp.Compare(a.ID, b.ID)
	})
}

// allowed is the filter's allowed sets as maps, for the check in Go.
type allowed struct {
	agents, resources map[string]bool
}

func newAllowed(f vectors.Filter) allowed {
	set := func(xs []string) map[string]bool {
		m := make(map[string]bool, len(xs))
		for _, x := range xs {
			m[x] = true
		}
		return m
	}
	return allowed{agents: set(f.AllowedAgents), resources: set(f.AllowedResources)}
}

func (a allowed) admits(m *vectors.Fragment) bool {
	for _, x := range m.Agents {
		if !a.agents[x] {
			return false
		}
	}
	for _, x := range m.Resources {
		if !a.resources[x] {
			return false
		}
	}
	return true
}
