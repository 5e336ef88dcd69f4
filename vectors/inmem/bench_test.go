package inmem_test

import (
	"context"
	"fmt"
	"math"
	"os"
	"runtime"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/cmem/cmem/internal/benchfig"
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

// corpus is a populated store and, for the baseline, the vectors of its
// shared tier in one plain float32 array.
type corpus struct {
	store  *inmem.Store
	shared []float32
}

var corpora sync.Map // size → *corpus, built once per test binary

func populated(b *testing.B, n int) *corpus {
	if c, ok := corpora.Load(n); ok {
		return c.(*corpus)
	}
	s, err := inmem.New(vectorstest.BenchDims)
	if err != nil {
		b.Fatal(err)
	}
	c := &corpus{store: s}
	g := vectorstest.NewGen(2, vectorstest.BenchDims, vectorstest.BenchMix)
	for range (n + 255) / 256 {
		batch := g.Fragments(256)
		if err := s.Upsert(context.Background(), batch); err != nil {
			b.Fatal(err)
		}
		for _, f := range batch {
			if f.Tier == "shared" {
				c.shared = append(c.shared, unit(f.Vector)...)
			}
		}
	}
	corpora.Store(n, c)
	return c
}

// searchSizes are the store sizes of BenchmarkSearch; 1M needs about 2 GB
// and a minute to build, so CMEM_BENCH_VIEW_1M=0 leaves it out.
func searchSizes() []int {
	if os.Getenv("CMEM_BENCH_VIEW_1M") == "0" {
		return []int{10_000, 100_000}
	}
	return []int{10_000, 100_000, 1_000_000}
}

// BenchmarkSearch times filtered top-10 searches of the shared tier at
// 10k, 100k and 1M fragments (256-d, 100 agents, 1000 resources, 1–3
// agents and 0–3 resources per fragment, filters allowing 60% of each),
// and, as the baseline in the same run, the plainest exact top-10: one
// loop of float32 dot products over the same shared-tier vectors in one
// array, no permission filter, one core.
func BenchmarkSearch(b *testing.B) {
	for _, n := range searchSizes() {
		b.Run(fmt.Sprintf("fragments=%d", n), func(b *testing.B) {
			c := populated(b, n)
			runtime.GC() // the build's garbage is not the search's cost
			queries := vectorstest.NewGen(3, vectorstest.BenchDims, vectorstest.BenchMix).BenchQueries(64)
			ctx := context.Background()
			samples := max(b.N, vectorstest.MinLatencySamples)
			lat, base := make([]time.Duration, 0, samples), make([]time.Duration, 0, samples)
			hits := 0
			var cpuView, cpuPlain time.Duration // process CPU time: what a loaded machine does not inflate
			b.ResetTimer()
			for i := range samples {
				q := queries[i%len(queries)]
				start, cpu0 := time.Now(), benchfig.ProcessCPU()
				res, err := c.store.Search(ctx, q.Vector, q.Filter, 10)
				lat = append(lat, time.Since(start))
				cpuView += benchfig.ProcessCPU() - cpu0
				if err != nil {
					b.Fatal(err)
				}
				hits += len(res)
				if i%4 == 0 || n < 1_000_000 { // the baseline is slow at 1M: a quarter of the samples
					start, cpu0 = time.Now(), benchfig.ProcessCPU()
					plainTop10(c.shared, q.Vector)
					base = append(base, time.Since(start))
					cpuPlain += benchfig.ProcessCPU() - cpu0
				}
			}
			b.StopTimer()
			if hits == 0 {
				b.Fatal("no search found anything: the benchmark measures nothing")
			}
			vectorstest.ReportLatency(b, "", lat)
			vectorstest.ReportLatency(b, "plain-", base)
			b.ReportMetric(float64(cpuView)/float64(time.Millisecond)/float64(len(lat)), "cpu-ms/search")
			b.ReportMetric(float64(cpuPlain)/float64(time.Millisecond)/float64(len(base)), "plain-cpu-ms/search")
			ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
			goal := "< 2 ms"
			if n != 100_000 {
				goal = "report"
			}
			benchfig.Record(b, benchfig.Figure{
				Name:  fmt.Sprintf("in-process view, %s fragments, filtered top-10 p99", count(n)),
				Value: ms(vectorstest.Percentile(lat, 0.99)), Unit: "ms p99",
				Baseline:      "plain float32 brute-force top-10, no filter, one core",
				BaselineValue: ms(vectorstest.Percentile(base, 0.99)), LowerIsBetter: true, Goal: goal,
			})
		})
	}
}

func count(n int) string {
	if n >= 1_000_000 {
		return fmt.Sprintf("%dM", n/1_000_000)
	}
	return fmt.Sprintf("%dk", n/1000)
}

func unit(v []float32) []float32 {
	var ss float64
	for _, x := range v {
		ss += float64(x) * float64(x)
	}
	out := make([]float32, len(v))
	for i, x := range v {
		out[i] = float32(float64(x) / math.Sqrt(ss))
	}
	return out
}

// plainTop10 is the baseline: the exact top 10 of q over vecs (unit
// vectors: a dot product is the cosine, up to q's norm), by one scalar
// loop and a sorted insertion into ten slots.
func plainTop10(vecs, q []float32) []float32 {
	d := len(q)
	top := make([]float32, 0, 11)
	for off := 0; off+d <= len(vecs); off += d {
		v := vecs[off : off+d]
		var score float32
		for i, x := range q {
			score += x * v[i]
		}
		if len(top) == 10 && score <= top[9] {
			continue
		}
		at, _ := slices.BinarySearchFunc(top, score, func(a, b float32) int {
			if a > b {
				return -1
			}
			return 1
		})
		top = slices.Insert(top, at, score)
		if len(top) > 10 {
			top = top[:10]
		}
	}
	return top
}
