package weaviate

import (
	"context"

	"github.com/weaviate/weaviate-go-client/v4/weaviate/filters"
	pb "github.com/weaviate/weaviate/grpc/generated/protocol/v1"

	"github.com/cmem/cmem/vectors"
)

// throughLabel runs query (a nearVector or a hybrid search filtered on
// one label) when f's reader class is ready, and checks every hit in Go
// against the class and the allowed sets. ok is false when the class is
// not ready (it is registered, and the caller falls back to the exclusion
// filter) or when a hit failed the check, which only a label written by
// another writer or a bug could cause: the caller then asks again the old
// way. Hits come back unsorted and untrimmed.
func (s *Store) throughLabel(f vectors.Filter, allow allowed, query func(label string) ([]vectors.Hit, error)) (hits []vectors.Hit, ok bool, err error) {
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
	raw, err := query(label)
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
	return hits, true, nil
}

// labelled is Search through f's reader label (see throughLabel).
func (s *Store) labelled(ctx context.Context, vector []float32, f vectors.Filter, allow allowed, k int) ([]vectors.Hit, bool, error) {
	hits, ok, err := s.throughLabel(f, allow, func(label string) ([]vectors.Hit, error) {
		return s.nearVectorLabel(ctx, vector, label, min(k+tieSlack, s.cfg.MaxResults))
	})
	if !ok || err != nil {
		return nil, ok, err
	}
	sortHits(hits)
	return hits[:min(k, len(hits))], true, nil
}

// labelFilter is the gRPC filter on one reader label.
func labelFilter(label string) *pb.Filters {
	return &pb.Filters{Operator: pb.Filters_OPERATOR_CONTAINS_ANY, Target: target(propReaders),
		TestValue: &pb.Filters_ValueTextArray{ValueTextArray: &pb.TextArray{Values: []string{label}}}}
}

// nearVectorLabel is nearVector filtered on one reader label.
func (s *Store) nearVectorLabel(ctx context.Context, vector []float32, label string, limit int) ([]vectors.Hit, error) {
	if s.search == nil {
		return s.nearVectorWhere(ctx, vector,
			filters.Where().WithPath([]string{propReaders}).WithOperator(filters.ContainsAny).WithValueText(label), limit)
	}
	req := s.searchRequest(nil, limit, &pb.MetadataRequest{Distance: true})
	req.Filters = labelFilter(label)
	return s.nearVectorRequest(ctx, vector, req)
}
