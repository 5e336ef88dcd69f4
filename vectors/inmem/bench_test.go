package inmem_test

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/cmem/cmem/vectors/inmem"
	"github.com/cmem/cmem/vectors/vectorstest"
)

// BenchmarkIngest upserts fresh fragments in batches of 256 into a store
// that grows to 10k, then starts again (the reset is not timed).
func BenchmarkIngest(b *testing.B) {
	s, err := inmem.New(vectorstest.BenchDims)
	if err != nil {
		b.Fatal(err)
	}
	vectorstest.BenchIngest(b, s, 256, 40)
}

var stores sync.Map // size → *inmem.Store, built once per test binary

func populated(b *testing.B, n int) *inmem.Store {
	if s, ok := stores.Load(n); ok {
		return s.(*inmem.Store)
	}
	s, err := inmem.New(vectorstest.BenchDims)
	if err != nil {
		b.Fatal(err)
	}
	g := vectorstest.NewGen(2, vectorstest.BenchDims, vectorstest.BenchMix)
	for _, batch := range g.Batches(n, 256) {
		if err := s.Upsert(context.Background(), batch); err != nil {
			b.Fatal(err)
		}
	}
	stores.Store(n, s)
	return s
}

// BenchmarkSearch times filtered top-10 searches of the shared tier at
// 10k and 100k fragments (256-d, 100 agents, 1000 resources, 1–3 agents
// and 0–3 resources per fragment, filters allowing 60% of each).
func BenchmarkSearch(b *testing.B) {
	for _, n := range []int{10_000, 100_000} {
		b.Run(fmt.Sprintf("fragments=%d", n), func(b *testing.B) {
			s := populated(b, n)
			runtime.GC() // the build's garbage is not the search's cost
			queries := vectorstest.NewGen(3, vectorstest.BenchDims, vectorstest.BenchMix).BenchQueries(64)
			ctx := context.Background()
			lat := make([]time.Duration, 0, max(b.N, vectorstest.MinLatencySamples))
			hits := 0
			b.ResetTimer()
			for i := range max(b.N, vectorstest.MinLatencySamples) {
				q := queries[i%len(queries)]
				start := time.Now()
				res, err := s.Search(ctx, q.Vector, q.Filter, 10)
				lat = append(lat, time.Since(start))
				if err != nil {
					b.Fatal(err)
				}
				hits += len(res)
			}
			if hits == 0 {
				b.Fatal("no search found anything: the benchmark measures nothing")
			}
			vectorstest.ReportLatency(b, "", lat)
		})
	}
}
