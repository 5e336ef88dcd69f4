package weaviate

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/cmem/cmem/internal/benchfig"
	"github.com/cmem/cmem/vectors"
	"github.com/cmem/cmem/vectors/vectorstest"
	"github.com/cmem/cmem/vectors/weaviate/weaviatetest"
)

// populatedText is populated with BenchText keys and values, for the
// lexical side of hybrid search; its class is apart from populated's.
func populatedText(b *testing.B, n int) *Store {
	benchMu.Lock()
	defer benchMu.Unlock()
	if s, ok := benchStores[-n]; ok {
		return s
	}
	srv := weaviatetest.Shared(b)
	ctx := context.Background()
	s, err := Open(ctx, Config{URL: srv.URL, GRPCAddr: srv.GRPCAddr, Class: fmt.Sprintf("CmemBenchText%d", n), Dims: vectorstest.BenchDims,
		RequestTimeout: 5 * time.Minute})
	if err != nil {
		b.Fatal(err)
	}
	if err := s.Reset(ctx); err != nil {
		b.Fatal(err)
	}
	readyReaders(b, s)
	g := vectorstest.NewGen(2, vectorstest.BenchDims, vectorstest.BenchMix)
	for _, batch := range g.Batches(n, 256) {
		g.WithBenchText(batch)
		if err := s.Upsert(ctx, batch); err != nil {
			b.Fatal(err)
		}
	}
	benchStores[-n] = s
	return s
}

// BenchmarkHybridSearch times the hybrid view's filtered top-10 of the
// shared tier over gRPC at 10k fragments and, interleaved on the same
// data, Weaviate's own unfiltered hybrid query with the same text, vector
// and limit: the baseline.
func BenchmarkHybridSearch(b *testing.B) {
	const n = 10_000
	s := populatedText(b, n)
	if s.search == nil {
		b.Fatal("the benchmark store has no gRPC connection")
	}
	queries := vectorstest.NewGen(3, vectorstest.BenchDims, vectorstest.BenchMix).BenchQueries(64)
	ctx := context.Background()
	samples := max(b.N, vectorstest.MinLatencySamples)
	filtered, unfiltered := make([]time.Duration, 0, samples), make([]time.Duration, 0, samples)
	hits := 0
	b.ResetTimer()
	for i := range samples {
		q := queries[i%len(queries)]
		vq := vectors.Query{Text: q.Text, Vector: q.Vector}
		start := time.Now()
		res, err := s.HybridSearch(ctx, vq, q.Filter, 10)
		filtered = append(filtered, time.Since(start))
		if err != nil {
			b.Fatal(err)
		}
		hits += len(res)
		start = time.Now()
		if _, err := s.hybridGRPC(ctx, vq, nil, vectors.HybridDepth(10)); err != nil {
			b.Fatal(err)
		}
		unfiltered = append(unfiltered, time.Since(start))
	}
	b.StopTimer()
	if hits == 0 {
		b.Fatal("no search found anything: the benchmark measures nothing")
	}
	vectorstest.ReportLatency(b, "", filtered)
	vectorstest.ReportLatency(b, "unfiltered-", unfiltered)
	p50 := func(ds []time.Duration) float64 {
		return float64(vectorstest.Percentile(ds, 0.5)) / float64(time.Millisecond)
	}
	benchfig.Record(b, benchfig.Figure{
		Name:  fmt.Sprintf("Weaviate hybrid view, %dk fragments, filtered top-10 p50 (gRPC)", n/1000),
		Value: p50(filtered), Unit: "ms p50",
		Baseline: "Weaviate unfiltered hybrid query, gRPC", BaselineValue: p50(unfiltered),
		LowerIsBetter: true, Goal: "≤ 1.5× unfiltered (ratio ≥ 0.67)",
	})
}
