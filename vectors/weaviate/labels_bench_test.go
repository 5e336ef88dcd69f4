package weaviate

import (
	"context"
	"fmt"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/weaviate/weaviate/entities/models"
	pb "github.com/weaviate/weaviate/grpc/generated/protocol/v1"

	"github.com/cmem/cmem/vectors"
	"github.com/cmem/cmem/vectors/vectorstest"
	"github.com/cmem/cmem/vectors/weaviate/weaviatetest"
)

// propReaders is the experiment's per-object property: the reader classes
// (here, the benchmark's filters) that may read the object.
const propReaders = "readers"

// BenchmarkReaderLabels measures, before anything is built for it, what
// the permission filter would cost if each object carried the reader
// classes that may read it and a search filtered on one class with one
// ContainsAny of a single value (no exclusion lists, no over-fetch): the
// representation issue 28 proposes. On one class loaded with BenchMix
// fragments, each labelled with the benchmark queries' filters that admit
// it (vectorstest.Matches), it times, interleaved, the label-filtered
// nearVector, Store.Search with today's filter and the unfiltered
// nearVector, and checks that the label filter returns the same fragments
// as Store.Search. Opt-in (CMEM_BENCH_LABELS=1): it loads its own class.
func BenchmarkReaderLabels(b *testing.B) {
	if os.Getenv("CMEM_BENCH_LABELS") != "1" {
		b.Skip("CMEM_BENCH_LABELS=1 runs the reader-label experiment")
	}
	n := 10_000
	if os.Getenv("CMEM_BENCH_LARGE") == "1" {
		n = 100_000
	}
	srv := weaviatetest.Shared(b)
	ctx := context.Background()
	s, err := Open(ctx, Config{URL: srv.URL, GRPCAddr: srv.GRPCAddr, Class: fmt.Sprintf("CmemBenchLabels%d", n),
		Dims: vectorstest.BenchDims, RequestTimeout: 5 * time.Minute})
	if err != nil {
		b.Fatal(err)
	}
	defer func() { _ = s.Drop(ctx) }()
	if err := s.Reset(ctx); err != nil {
		b.Fatal(err)
	}
	yes := true
	if err := s.client.Schema().PropertyCreator().WithClassName(s.cfg.Class).WithProperty(&models.Property{
		Name: propReaders, DataType: []string{"text[]"}, Tokenization: "field", IndexFilterable: &yes,
	}).Do(ctx); err != nil {
		b.Fatal(err)
	}
	queries := vectorstest.NewGen(3, vectorstest.BenchDims, vectorstest.BenchMix).BenchQueries(64)
	for _, batch := range vectorstest.NewGen(2, vectorstest.BenchDims, vectorstest.BenchMix).Batches(n, 256) {
		objs := make([]*models.Object, len(batch))
		for i := range batch {
			o, err := s.object(&batch[i])
			if err != nil {
				b.Fatal(err)
			}
			labels := []string{}
			for qi, q := range queries {
				if vectorstest.Matches(batch[i], q.Filter) {
					labels = append(labels, fmt.Sprintf("q%d", qi))
				}
			}
			o.Properties.(map[string]any)[propReaders] = labels
			objs[i] = o
		}
		resp, err := s.client.Batch().ObjectsBatcher().WithObjects(objs...).Do(ctx)
		if err != nil {
			b.Fatal(err)
		}
		if err := batchErrors(resp); err != nil {
			b.Fatal(err)
		}
	}
	labelled := func(qi int, vector []float32, limit int) []vectors.Hit {
		req := s.searchRequest(nil, limit, &pb.MetadataRequest{Distance: true})
		req.NearVector = &pb.NearVector{VectorBytes: vectorBytes(vector)}
		req.Filters = &pb.Filters{Operator: pb.Filters_OPERATOR_CONTAINS_ANY, Target: target(propReaders),
			TestValue: &pb.Filters_ValueTextArray{ValueTextArray: &pb.TextArray{Values: []string{fmt.Sprintf("q%d", qi)}}}}
		reply, err := s.searchGRPC(ctx, req)
		if err != nil {
			b.Fatal(err)
		}
		hits := []vectors.Hit{}
		for _, r := range reply.GetResults() {
			f, err := decodeResult(r)
			if err != nil {
				b.Fatal(err)
			}
			hits = append(hits, vectors.Hit{Fragment: f, Score: 1 - r.GetMetadata().GetDistance()})
		}
		sortHits(hits)
		return hits[:min(10, len(hits))]
	}
	samples := max(b.N, vectorstest.MinLatencySamples)
	var lab, cur, raw []time.Duration
	differ := 0
	b.ResetTimer()
	for i := range samples {
		qi := i % len(queries)
		q := queries[qi]
		start := time.Now()
		got := labelled(qi, q.Vector, 10+tieSlack)
		lab = append(lab, time.Since(start))
		start = time.Now()
		want, err := s.Search(ctx, q.Vector, q.Filter, 10)
		cur = append(cur, time.Since(start))
		if err != nil {
			b.Fatal(err)
		}
		start = time.Now()
		if _, err := s.nearVector(ctx, q.Vector, nil, 10+tieSlack); err != nil {
			b.Fatal(err)
		}
		raw = append(raw, time.Since(start))
		ids := func(hs []vectors.Hit) []string {
			out := make([]string, len(hs))
			for i, h := range hs {
				out[i] = h.ID
			}
			return out
		}
		if !slices.Equal(ids(got), ids(want)) {
			differ++
		}
	}
	b.StopTimer()
	p50 := func(ds []time.Duration) float64 {
		return float64(vectorstest.Percentile(ds, 0.5)) / float64(time.Millisecond)
	}
	vectorstest.ReportLatency(b, "labels-", lab)
	vectorstest.ReportLatency(b, "current-", cur)
	vectorstest.ReportLatency(b, "unfiltered-", raw)
	b.ReportMetric(p50(lab)/p50(raw), "labels-x")
	b.ReportMetric(p50(cur)/p50(raw), "current-x")
	b.ReportMetric(float64(differ), "differing-answers")
	b.Logf("%d fragments: label filter %.2f ms p50 (%.2f× unfiltered), current filter %.2f ms (%.2f×), unfiltered %.2f ms; %d of %d answers differ",
		n, p50(lab), p50(lab)/p50(raw), p50(cur), p50(cur)/p50(raw), p50(raw), differ, samples)
}
