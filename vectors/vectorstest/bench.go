package vectorstest

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/cmem/cmem/vectors"
)

// BenchDims is the vector dimension of the benchmarks.
const BenchDims = 256

// MinLatencySamples is the least number of queries a latency benchmark
// times, whatever b.N is, so that p99 means something even at -benchtime 1x.
const MinLatencySamples = 300

// Percentile returns the p-quantile (0 < p ≤ 1) of ds by the nearest-rank
// method.
func Percentile(ds []time.Duration, p float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Sorted(slices.Values(ds))
	i := int(p*float64(len(s))+0.999999) - 1
	return s[min(max(i, 0), len(s)-1)]
}

// ReportLatency reports ds as name+"p50-ms", name+"p99-ms", and, when name
// is empty, their mean as ns/op (replacing the timer's figure, since a
// latency benchmark times at least MinLatencySamples queries).
func ReportLatency(b *testing.B, name string, ds []time.Duration) {
	ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
	b.ReportMetric(ms(Percentile(ds, 0.50)), name+"p50-ms")
	b.ReportMetric(ms(Percentile(ds, 0.99)), name+"p99-ms")
	if name == "" && len(ds) > 0 {
		var sum time.Duration
		for _, d := range ds {
			sum += d
		}
		b.ReportMetric(float64(sum)/float64(len(ds)), "ns/op")
	}
}

// BenchQuery is one query of a latency benchmark; Text (BenchText words)
// is for hybrid search.
type BenchQuery struct {
	Vector []float32
	Filter vectors.Filter
	Text   string
}

// BenchQueries returns n queries on the shared tier (the large half of a
// read: the private half scans one user's partition) with filters that
// allow 60% of agents and resources.
func (g *Gen) BenchQueries(n int) []BenchQuery {
	out := make([]BenchQuery, n)
	// The texts come from a generator of their own, so the vectors and
	// filters are those the benchmarks drew before queries had text.
	words := &Gen{rng: rand.New(rand.NewPCG(77, uint64(n)))}
	for i := range out {
		f := g.Filter(0.6)
		f.Tier = "shared"
		out[i] = BenchQuery{Vector: g.Vector(), Filter: f, Text: words.BenchText(3 + words.rng.IntN(6))}
	}
	return out
}

// Batches returns n fragments in batches of size.
func (g *Gen) Batches(n, size int) [][]vectors.Fragment {
	var out [][]vectors.Fragment
	for n > 0 {
		out = append(out, g.Fragments(min(n, size)))
		n -= size
	}
	return out
}

// BenchIngest upserts n batches of fresh fragments per round into s,
// resetting it (untimed) between rounds so the store never outgrows
// batch*perRound, and reports fragments/s. Every backend's ingest
// benchmark is this loop; only the store differs.
func BenchIngest(b *testing.B, s vectors.Store, batch, perRound int) {
	batches := NewGen(1, BenchDims, BenchMix).Batches(batch*perRound, batch)
	ctx := context.Background()
	b.ResetTimer()
	for i := range b.N {
		if i%perRound == 0 && i > 0 {
			b.StopTimer()
			if err := s.Reset(ctx); err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
		}
		if err := s.Upsert(ctx, batches[i%perRound]); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N*batch)/b.Elapsed().Seconds(), "fragments/s")
}
