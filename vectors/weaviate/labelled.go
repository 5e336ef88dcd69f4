package weaviate

import (
	"context"

	"github.com/weaviate/weaviate-go-client/v4/weaviate/filters"
	pb "github.com/weaviate/weaviate/grpc/generated/protocol/v1"

	"github.com/cmem/cmem/vectors"
)

// labelled searches through f's reader class when it is ready: one
// ContainsAny of a single label instead of the exclusion lists. ok is
// false when the class is not ready (it is registered, and the caller
// falls back to the exclusion filter) or when a hit failed the check in
// Go, which only a bug could cause: the caller then asks again the old way.
func (s *Store) labelled(ctx context.Context, vector []float32, f vectors.Filter, allow allowed, k int) (hits []vectors.Hit, ok bool, err error) {
	r := s.labels
	if r == nil {
		return nil, false, nil
	}
	label := readerLabel(f)
	r.mu.RLock()
	c, known := r.lookup(label)
	if c == nil {
		r.mu.RUnlock()
		if known {
			r.signal() // a failed pass is retried when its class is asked for
		} else {
			r.register(label, f)
		}
		return nil, false, nil
	}
	// The read lock is kept through the query: a class evicted meanwhile
	// stops being maintained by upserts, and must not be searched then.
	defer r.mu.RUnlock()
	raw, err := s.nearVectorLabel(ctx, vector, label, min(k+tieSlack, s.cfg.MaxResults))
	if err != nil {
		return nil, false, err
	}
	hits = raw[:0:0]
	for _, h := range raw {
		if c.admits(&h.Fragment) && allow.admits(&h.Fragment) {
			hits = append(hits, h)
		}
	}
	if len(hits) < len(raw) {
		s.cfg.Logger.Error("weaviate: a reader label admitted fragments outside its class; using the exclusion filter",
			"class", s.cfg.Class, "label", label, "dropped", len(raw)-len(hits))
		return nil, false, nil
	}
	r.searches.Add(1)
	sortHits(hits)
	return hits[:min(k, len(hits))], true, nil
}

// nearVectorLabel is nearVector filtered on one reader label.
func (s *Store) nearVectorLabel(ctx context.Context, vector []float32, label string, limit int) ([]vectors.Hit, error) {
	if s.search == nil {
		return s.nearVectorWhere(ctx, vector,
			filters.Where().WithPath([]string{propReaders}).WithOperator(filters.ContainsAny).WithValueText(label), limit)
	}
	req := s.searchRequest(nil, limit, &pb.MetadataRequest{Distance: true})
	req.Filters = &pb.Filters{Operator: pb.Filters_OPERATOR_CONTAINS_ANY, Target: target(propReaders),
		TestValue: &pb.Filters_ValueTextArray{ValueTextArray: &pb.TextArray{Values: []string{label}}}}
	return s.nearVectorRequest(ctx, vector, req)
}
