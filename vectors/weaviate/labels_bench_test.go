package weaviate

import (
	"context"
	"fmt"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/cmem/cmem/internal/benchfig"
	"github.com/cmem/cmem/vectors"
	"github.com/cmem/cmem/vectors/vectorstest"
	"github.com/cmem/cmem/vectors/weaviate/weaviatetest"
)

// BenchmarkReaderLabels times, on one class of BenchMix fragments loaded
// with reader labels on, shared through the class as the node's are
// (Config.Shared, this Store holding the lease), interleaved: Store.Search through the
// queries' ready reader labels, Store.Search with the exclusion filter (a
// second Store on the same class with labels off: Config.ExclusionFilter)
// and the unfiltered nearVector. labels-x and filter-x are their p50s over
// the unfiltered one, in the same run. The readers search once before the
// load (registering their classes, as a live reader does), so the load
// labels every fragment; at 10k, a revocation after the load times a
// materialisation pass over the whole class (materialise-s). Any answer
// that differs between the two filters fails the benchmark. Opt-in
// (CMEM_BENCH_LABELS=1): it loads its own class.
func BenchmarkReaderLabels(b *testing.B) {
	if os.Getenv("CMEM_BENCH_LABELS") != "1" {
		b.Skip("CMEM_BENCH_LABELS=1 runs the reader-label benchmark")
	}
	n := 10_000
	if os.Getenv("CMEM_BENCH_LARGE") == "1" {
		n = 100_000
	}
	srv := weaviatetest.Shared(b)
	ctx := context.Background()
	s, err := Open(ctx, Config{URL: srv.URL, GRPCAddr: srv.GRPCAddr, Class: fmt.Sprintf("CmemBenchLabels%d", n),
		Dims: vectorstest.BenchDims, RequestTimeout: 5 * time.Minute, Shared: true})
	if err != nil {
		b.Fatal(err)
	}
	defer func() { _ = s.Drop(ctx) }()
	held := &testLease{}
	held.held.Store(true)
	s.share(held)
	if err := s.Reset(ctx); err != nil {
		b.Fatal(err)
	}
	queries := vectorstest.NewGen(3, vectorstest.BenchDims, vectorstest.BenchMix).BenchQueries(64)
	for _, q := range queries {
		if _, err := s.Search(ctx, q.Vector, q.Filter, 10); err != nil {
			b.Fatal(err)
		}
	}
	for _, q := range queries {
		waitReady(b, s, q.Filter, time.Minute)
	}
	start := time.Now()
	for _, batch := range vectorstest.NewGen(2, vectorstest.BenchDims, vectorstest.BenchMix).Batches(n, 256) {
		if err := s.Upsert(ctx, batch); err != nil {
			b.Fatal(err)
		}
	}
	b.Logf("loaded %d labelled fragments in %v", n, time.Since(start))
	off := &Store{cfg: s.cfg, client: s.client, search: s.search} // labels off: the exclusion filter
	samples := max(b.N, vectorstest.MinLatencySamples)
	var lab, cur, raw []time.Duration
	served := s.labels.searches.Load()
	b.ResetTimer()
	for i := range samples {
		q := queries[i%len(queries)]
		start := time.Now()
		got, err := s.Search(ctx, q.Vector, q.Filter, 10)
		lab = append(lab, time.Since(start))
		if err != nil {
			b.Fatal(err)
		}
		start = time.Now()
		want, err := off.Search(ctx, q.Vector, q.Filter, 10)
		cur = append(cur, time.Since(start))
		if err != nil {
			b.Fatal(err)
		}
		start = time.Now()
		if _, err := s.nearVector(ctx, q.Vector, nil, 10+tieSlack); err != nil {
			b.Fatal(err)
		}
		raw = append(raw, time.Since(start))
		if !slices.Equal(hitIDs(got), hitIDs(want)) {
			b.Fatalf("query %d: labels %v, exclusion filter %v", i%len(queries), hitIDs(got), hitIDs(want))
		}
	}
	b.StopTimer()
	if s.labels.searches.Load()-served != int64(samples) {
		b.Fatalf("%d of %d searches went through labels", s.labels.searches.Load()-served, samples)
	}
	p50 := func(ds []time.Duration) float64 {
		return float64(vectorstest.Percentile(ds, 0.5)) / float64(time.Millisecond)
	}
	vectorstest.ReportLatency(b, "labels-", lab)
	vectorstest.ReportLatency(b, "filter-", cur)
	vectorstest.ReportLatency(b, "unfiltered-", raw)
	b.ReportMetric(p50(lab)/p50(raw), "labels-x")
	b.ReportMetric(p50(cur)/p50(raw), "filter-x")
	b.Logf("%d fragments: labels %.2f ms p50 (%.2f× unfiltered), exclusion filter %.2f ms (%.2f×), unfiltered %.2f ms",
		n, p50(lab), p50(lab)/p50(raw), p50(cur), p50(cur)/p50(raw), p50(raw))
	benchfig.Record(b, benchfig.Figure{
		Name:  fmt.Sprintf("Weaviate view, %dk fragments, reader-label top-10 p50 (gRPC)", n/1000),
		Value: p50(lab), Unit: "ms p50",
		Baseline: "Weaviate unfiltered nearVector, gRPC", BaselineValue: p50(raw),
		LowerIsBetter: true, Goal: "≤ 1.5× unfiltered (ratio ≥ 0.67)",
	})
	if n > 10_000 {
		return // a pass over 100k objects takes minutes; timed at 10k
	}
	revoked := queries[0].Filter
	revoked.AllowedAgents = revoked.AllowedAgents[min(1, len(revoked.AllowedAgents)):]
	start = time.Now()
	if _, err := s.Search(ctx, queries[0].Vector, revoked, 10); err != nil {
		b.Fatal(err)
	}
	waitReady(b, s, revoked, 10*time.Minute)
	b.ReportMetric(time.Since(start).Seconds(), "materialise-s")
}

func hitIDs(hs []vectors.Hit) []string {
	out := make([]string, len(hs))
	for i, h := range hs {
		out[i] = h.ID
	}
	return out
}
