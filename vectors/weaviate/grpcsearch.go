package weaviate

import (
	"context"
	"encoding/binary"
	"fmt"
	"math"

	pb "github.com/weaviate/weaviate/grpc/generated/protocol/v1"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	"github.com/cmem/cmem/vectors"
)

// Searches go over Weaviate's gRPC Search call when Config.GRPCAddr is set:
// the GraphQL path spends most of a filtered query building, parsing and
// serialising text (the where clause with its id lists on the way in, the
// over-fetched objects as JSON on the way out). weaviate-go-client/v4 only
// batches over gRPC, so the search speaks the server's own generated
// protocol (github.com/weaviate/weaviate/grpc/generated/protocol/v1).

// opContainsNone is Weaviate's CONTAINS_NONE filter operator (server
// v1.33 and later; the v1.27 protocol module this build links predates
// it). Protobuf enums are open, so the number goes over the wire as is.
const opContainsNone pb.Filters_Operator = 14

// grpcSearch is the store's gRPC connection for searches.
type grpcSearch struct {
	conn   *grpc.ClientConn
	client pb.WeaviateClient
}

// dialSearch connects lazily: the first search dials.
func dialSearch(addr string) (*grpcSearch, error) {
	conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithDefaultCallOptions(grpc.MaxCallRecvMsgSize(64<<20)))
	if err != nil {
		return nil, fmt.Errorf("weaviate: dial gRPC %s: %w", addr, err)
	}
	return &grpcSearch{conn: conn, client: pb.NewWeaviateClient(conn)}, nil
}

// pbFilterFor is whereFor in the gRPC protocol: the same conjunction, with
// CONTAINS_NONE for ¬ContainsAny.
func pbFilterFor(f vectors.Filter) *pb.Filters {
	text := func(prop, v string) *pb.Filters {
		return &pb.Filters{Operator: pb.Filters_OPERATOR_EQUAL, Target: target(prop), TestValue: &pb.Filters_ValueText{ValueText: v}}
	}
	ops := []*pb.Filters{text(propTier, f.Tier)}
	if f.Tier == "private" {
		ops = append(ops, text(propUser, f.User))
	}
	for _, ex := range exclusions(f) {
		ops = append(ops, &pb.Filters{Operator: opContainsNone, Target: target(ex.prop),
			TestValue: &pb.Filters_ValueTextArray{ValueTextArray: &pb.TextArray{Values: ex.ids}}})
	}
	if len(ops) == 1 {
		return ops[0]
	}
	return &pb.Filters{Operator: pb.Filters_OPERATOR_AND, Filters: ops}
}

func target(prop string) *pb.FilterTarget {
	return &pb.FilterTarget{Target: &pb.FilterTarget_Property{Property: prop}}
}

// nearVectorGRPC is nearVector over gRPC; f nil is unfiltered.
func (s *Store) nearVectorGRPC(ctx context.Context, vector []float32, f *vectors.Filter, limit int) ([]vectors.Hit, error) {
	return s.nearVectorRequest(ctx, vector, s.searchRequest(f, limit, &pb.MetadataRequest{Distance: true}))
}

// nearVectorRequest completes req with the query vector, sends it and
// decodes the hits.
func (s *Store) nearVectorRequest(ctx context.Context, vector []float32, req *pb.SearchRequest) ([]vectors.Hit, error) {
	req.NearVector = &pb.NearVector{VectorBytes: vectorBytes(vector)}
	reply, err := s.searchGRPC(ctx, req)
	if err != nil {
		return nil, fmt.Errorf("weaviate: nearVector (gRPC): %w", err)
	}
	hits := make([]vectors.Hit, 0, len(reply.GetResults()))
	for _, r := range reply.GetResults() {
		frag, err := decodeResult(r)
		if err != nil {
			return nil, fmt.Errorf("weaviate: nearVector (gRPC): %w", err)
		}
		hits = append(hits, vectors.Hit{Fragment: frag, Score: 1 - r.GetMetadata().GetDistance()})
	}
	return hits, nil
}

// searchRequest is what every gRPC search of the store asks alike: the
// class, the limit, a fragment's properties, the metadata meta and, when
// f is not nil, f pushed down (pbFilterFor). The caller sets the query.
func (s *Store) searchRequest(f *vectors.Filter, limit int, meta *pb.MetadataRequest) *pb.SearchRequest {
	req := &pb.SearchRequest{
		Collection: s.cfg.Class,
		Limit:      uint32(limit),
		Properties: &pb.PropertiesRequest{NonRefProperties: []string{
			propID, propKey, propValue, propTier, propUser, propAgents, propResources, propCreatedAt, propRevision, propModel,
		}},
		Metadata:    meta,
		Uses_123Api: true, Uses_125Api: true, Uses_127Api: true,
	}
	if f != nil {
		req.Filters = pbFilterFor(*f)
	}
	return req
}

// searchGRPC sends req, bounded by Config.RequestTimeout.
func (s *Store) searchGRPC(ctx context.Context, req *pb.SearchRequest) (*pb.SearchReply, error) {
	ctx, cancel := context.WithTimeout(ctx, s.cfg.RequestTimeout)
	defer cancel()
	return s.search.client.Search(ctx, req)
}

// vectorBytes is v as the 1.25 protocol sends a vector: little-endian
// float32s.
func vectorBytes(v []float32) []byte {
	buf := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(buf[4*i:], math.Float32bits(x))
	}
	return buf
}

// decodeResult is the fragment of one gRPC search result, read by the
// decoder GraphQL answers go through.
func decodeResult(r *pb.SearchResult) (vectors.Fragment, error) {
	props := r.GetProperties().GetNonRefProps().GetFields()
	o := make(map[string]any, len(props))
	for name, v := range props {
		o[name] = plain(v)
	}
	return decodeFragment(o)
}

// plain converts a gRPC property value to the shape GraphQL's JSON decodes
// to (string, float64, []any), so one decoder reads both.
func plain(v *pb.Value) any {
	switch k := v.GetKind().(type) {
	case *pb.Value_TextValue:
		return k.TextValue
	case *pb.Value_DateValue:
		return k.DateValue
	case *pb.Value_UuidValue:
		return k.UuidValue
	case *pb.Value_IntValue:
		return float64(k.IntValue)
	case *pb.Value_NumberValue:
		return k.NumberValue
	case *pb.Value_ListValue:
		// Text lists are all a fragment has; the request declares the
		// 1.25+ protocol, so they come typed.
		tv, ok := k.ListValue.GetKind().(*pb.ListValue_TextValues)
		if !ok {
			return []any{}
		}
		out := make([]any, len(tv.TextValues.GetValues()))
		for i, s := range tv.TextValues.GetValues() {
			out[i] = s
		}
		return out
	}
	return nil
}
