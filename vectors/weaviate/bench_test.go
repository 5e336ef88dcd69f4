package weaviate

import (
	"context"
	"fmt"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/cmem/cmem/internal/benchfig"
	"github.com/cmem/cmem/vectors/vectorstest"
	"github.com/cmem/cmem/vectors/weaviate/weaviatetest"
)

// Weaviate indexes (HNSW) as it ingests: on this 2-core machine it takes
// only about 500–850 objects/s at 256-d, so 10k fragments take ~15 s to
// load and 100k several minutes. The 100k run is opt-in:
// CMEM_BENCH_LARGE=1.

// BenchmarkIngest upserts fresh fragments in batches of 256 over gRPC.
func BenchmarkIngest(b *testing.B) {
	vectorstest.BenchIngest(b, open(b, Config{Dims: vectorstest.BenchDims}), 256, 8)
}

var (
	benchMu     sync.Mutex
	benchStores = map[int]*Store{} // loaded once per test binary: loading dominates
)

// dropBenchStores removes the benchmark classes, which matters on an
// external server (CMEM_TEST_WEAVIATE_URL).
func dropBenchStores() {
	benchMu.Lock()
	defer benchMu.Unlock()
	for _, s := range benchStores {
		_ = s.Drop(context.Background())
	}
}

func populated(b *testing.B, n int) *Store {
	benchMu.Lock()
	defer benchMu.Unlock()
	if s, ok := benchStores[n]; ok {
		return s
	}
	srv := weaviatetest.Shared(b)
	ctx := context.Background()
	s, err := Open(ctx, Config{URL: srv.URL, GRPCAddr: srv.GRPCAddr, Class: fmt.Sprintf("CmemBench%d", n), Dims: vectorstest.BenchDims,
		// A batch into a 100k HNSW graph on a loaded 2-core machine can
		// take longer than the default bound; the load is not what is timed.
		RequestTimeout: 5 * time.Minute})
	if err != nil {
		b.Fatal(err)
	}
	if err := s.Reset(ctx); err != nil {
		b.Fatal(err)
	}
	readyReaders(b, s)
	start := time.Now()
	for _, batch := range vectorstest.NewGen(2, vectorstest.BenchDims, vectorstest.BenchMix).Batches(n, 256) {
		if err := s.Upsert(ctx, batch); err != nil {
			b.Fatal(err)
		}
	}
	b.Logf("loaded %d fragments in %v (%.0f fragments/s)", n, time.Since(start), float64(n)/time.Since(start).Seconds())
	benchStores[n] = s
	return s
}

// readyReaders registers the benchmark queries' reader classes before the
// load, as a live reader's are, so that the load labels every fragment
// and the searches time the default path, the reader label, in its
// steady state.
func readyReaders(b *testing.B, s *Store) {
	for _, q := range vectorstest.NewGen(3, vectorstest.BenchDims, vectorstest.BenchMix).BenchQueries(64) {
		if _, err := s.Search(context.Background(), q.Vector, q.Filter, 10); err != nil {
			b.Fatal(err)
		}
		waitReady(b, s, q.Filter, time.Minute)
	}
}

// BenchmarkSearch times filtered top-10 searches of the shared tier
// (Store.Search: where filter, tie slack, the allowed-set check) over gRPC
// and, on the same data, interleaved, the bare unfiltered nearVector with
// the same limit over gRPC (Weaviate's own search: the baseline) and the
// filtered search over GraphQL. filter-cost-x is the ratio of the filtered
// median to the unfiltered one.
func BenchmarkSearch(b *testing.B) {
	sizes := []int{10_000}
	if os.Getenv("CMEM_BENCH_LARGE") == "1" {
		sizes = append(sizes, 100_000)
	}
	for _, n := range sizes {
		b.Run(fmt.Sprintf("fragments=%d", n), func(b *testing.B) {
			s := populated(b, n)
			if s.search == nil {
				b.Fatal("the benchmark store has no gRPC connection")
			}
			gql := &Store{cfg: s.cfg, client: s.client} // no gRPC: GraphQL
			queries := vectorstest.NewGen(3, vectorstest.BenchDims, vectorstest.BenchMix).BenchQueries(64)
			ctx := context.Background()
			samples := max(b.N, vectorstest.MinLatencySamples)
			filtered := make([]time.Duration, 0, samples)
			unfiltered := make([]time.Duration, 0, samples)
			graphQL := make([]time.Duration, 0, samples)
			hits := 0
			b.ResetTimer()
			for i := range samples {
				q := queries[i%len(queries)]
				start := time.Now()
				res, err := s.Search(ctx, q.Vector, q.Filter, 10)
				filtered = append(filtered, time.Since(start))
				if err != nil {
					b.Fatal(err)
				}
				hits += len(res)
				start = time.Now()
				if _, err := s.nearVector(ctx, q.Vector, nil, 10+tieSlack); err != nil {
					b.Fatal(err)
				}
				unfiltered = append(unfiltered, time.Since(start))
				start = time.Now()
				if _, err := gql.Search(ctx, q.Vector, q.Filter, 10); err != nil {
					b.Fatal(err)
				}
				graphQL = append(graphQL, time.Since(start))
			}
			b.StopTimer()
			if hits == 0 {
				b.Fatal("no search found anything: the benchmark measures nothing")
			}
			vectorstest.ReportLatency(b, "", filtered)
			vectorstest.ReportLatency(b, "unfiltered-", unfiltered)
			vectorstest.ReportLatency(b, "graphql-", graphQL)
			p50 := func(ds []time.Duration) float64 {
				return float64(vectorstest.Percentile(ds, 0.5)) / float64(time.Millisecond)
			}
			b.ReportMetric(p50(filtered)/p50(unfiltered), "filter-cost-x")
			benchfig.Record(b, benchfig.Figure{
				Name:  fmt.Sprintf("Weaviate view, %dk fragments, filtered top-10 p50 (gRPC)", n/1000),
				Value: p50(filtered), Unit: "ms p50",
				Baseline: "Weaviate unfiltered nearVector, gRPC", BaselineValue: p50(unfiltered),
				LowerIsBetter: true, Goal: "≤ 1.5× unfiltered (ratio ≥ 0.67)",
			})
		})
	}
}
