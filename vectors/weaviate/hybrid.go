package weaviate

import (
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"slices"

	pb "github.com/weaviate/weaviate/grpc/generated/protocol/v1"

	"github.com/cmem/cmem/vectors"
)

var _ vectors.HybridSearcher = (*Store)(nil)

// HybridSearch implements vectors.HybridSearcher with Weaviate's own
// hybrid query over gRPC: BM25F over the key and value properties fused
// with the vector search by relative-score fusion (both sides min-max
// normalised, weighted vectors.HybridAlpha to the vector), with the whole
// filter pushed down (f's reader label once its class is ready, the
// exclusion lists until then), so both sides draw only from fragments
// matching f; every hit is checked against f in Go either way.
// It asks for vectors.HybridDepth(k) candidates, multiplies each fused
// score by vectors.LengthPrior of its value (Weaviate has no length
// prior) and returns the best k, ties by ascending id. Hit.Cosine is
// computed here from the returned vector; Hit.Lexical is 0, as Weaviate
// does not report its BM25 score apart, so a relevance floor holds a
// Weaviate hit to its cosine.
//
// Two differences from the in-process view, documented rather than
// hidden: the scores are Weaviate's fusion, not vectors.HybridScore; and
// Weaviate's BM25 statistics count every object of the class, so a score
// (never membership: the filter is exact) can depend on fragments the
// reader may not see. Without a gRPC address it ranks by vector alone.
func (s *Store) HybridSearch(ctx context.Context, q vectors.Query, f vectors.Filter, k int) ([]vectors.Hit, error) {
	if s.closed.Load() {
		return nil, ErrClosed
	}
	if len(q.Vector) != s.cfg.Dims {
		return nil, fmt.Errorf("weaviate: query has %d dimensions, store has %d: %w", len(q.Vector), s.cfg.Dims, vectors.ErrDimension)
	}
	if k <= 0 {
		return []vectors.Hit{}, nil
	}
	if s.search == nil {
		hits, err := s.Search(ctx, q.Vector, f, k)
		for i := range hits {
			hits[i].Cosine = hits[i].Score
		}
		return hits, err
	}
	limit := min(vectors.HybridDepth(k), s.cfg.MaxResults)
	allowed := newAllowed(f)
	hits, ok, err := s.throughLabel(f, allowed, func(label string) ([]vectors.Hit, error) {
		return s.hybridHits(ctx, q, labelFilter(label), limit)
	})
	if err != nil {
		return nil, err
	}
	if !ok {
		if hits, err = s.hybridHits(ctx, q, pbFilterFor(f), limit); err != nil {
			return nil, err
		}
		// The server filtered on the Excluded lists; the Allowed sets are
		// the contract (an id registered since the filter's universe was
		// read is in neither).
		hits = slices.DeleteFunc(hits, func(h vectors.Hit) bool { return !allowed.admits(&h.Fragment) })
	}
	sortHits(hits)
	return hits[:min(k, len(hits))], nil
}

// hybridHits runs one hybrid query filtered by where (nil: unfiltered)
// and scores its results: the fused score times the length prior, and
// the cosine from the returned vector.
func (s *Store) hybridHits(ctx context.Context, q vectors.Query, where *pb.Filters, limit int) ([]vectors.Hit, error) {
	reply, err := s.hybridGRPC(ctx, q, where, limit)
	if err != nil {
		return nil, err
	}
	hits := make([]vectors.Hit, 0, len(reply.GetResults()))
	for _, r := range reply.GetResults() {
		frag, err := decodeResult(r)
		if err != nil {
			return nil, fmt.Errorf("weaviate: hybrid (gRPC): %w", err)
		}
		h := vectors.Hit{Fragment: frag, Cosine: cosine(q.Vector, resultVector(r.GetMetadata()))}
		h.Score = r.GetMetadata().GetScore() * float32(vectors.LengthPrior(vectors.ValueTokens(frag.Value)))
		hits = append(hits, h)
	}
	return hits, nil
}

// hybridGRPC sends one hybrid query; where nil is unfiltered.
func (s *Store) hybridGRPC(ctx context.Context, q vectors.Query, where *pb.Filters, limit int) (*pb.SearchReply, error) {
	req := s.searchRequest(nil, limit, &pb.MetadataRequest{Score: true, Vector: true})
	req.Filters = where
	req.HybridSearch = &pb.Hybrid{Query: q.Text, Properties: []string{propKey, propValue}, Alpha: vectors.HybridAlpha,
		FusionType: pb.Hybrid_FUSION_TYPE_RELATIVE_SCORE, VectorBytes: vectorBytes(q.Vector)}
	reply, err := s.searchGRPC(ctx, req)
	if err != nil {
		return nil, fmt.Errorf("weaviate: hybrid (gRPC): %w", err)
	}
	return reply, nil
}

// resultVector is a result's vector, which the 1.25 protocol the request
// declares sends as bytes.
func resultVector(m *pb.MetadataResult) []float32 {
	b := m.GetVectorBytes()
	v := make([]float32, len(b)/4)
	for i := range v {
		v[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return v
}

func cosine(a, b []float32) float32 {
	if len(a) != len(b) {
		return 0
	}
	var ab, aa, bb float64
	for i := range a {
		ab += float64(a[i]) * float64(b[i])
		aa += float64(a[i]) * float64(a[i])
		bb += float64(b[i]) * float64(b[i])
	}
	if aa == 0 || bb == 0 {
		return 0
	}
	return float32(ab / math.Sqrt(aa*bb))
}
