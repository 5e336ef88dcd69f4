package paraphrase_test

import (
	"context"
	"fmt"
	"runtime"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/cmem/cmem/embedding"
	"github.com/cmem/cmem/embedding/hashing"
	"github.com/cmem/cmem/embedding/semantic"
	"github.com/cmem/cmem/experiments/paraphrase"
	"github.com/cmem/cmem/vectors"
	"github.com/cmem/cmem/vectors/inmem"
	"github.com/cmem/cmem/vectors/vectorstest"
)

// keys returns n fragment keys shaped like the corpus's questions, about
// n/30 made-up subjects.
func keys(n int) []string {
	out := make([]string, n)
	for i := range out {
		at := paraphrase.Attributes[i%len(paraphrase.Attributes)]
		out[i] = fmt.Sprintf(at.Questions[(i/len(paraphrase.Attributes))%len(at.Questions)], fmt.Sprintf("Town%d", i/30))
	}
	return out
}

// BenchmarkViewQuery is a memory view's own cost at 100k fragments with
// each offline embedder: embed the question, then the top-10 search of
// the in-process store (its vectors made by the same embedder). The
// semantic run also reports its p50 as a ratio to hashing's, measured in
// the same run.
func BenchmarkViewQuery(b *testing.B) {
	const n = 100_000
	var hashingP50 time.Duration
	for _, e := range []embedding.Embedder{hashing.New(256), semantic.Must()} {
		b.Run("embedder="+e.Model(), func(b *testing.B) {
			ctx := context.Background()
			ks := keys(n)
			vecs, err := e.Embed(ctx, ks)
			if err != nil {
				b.Fatal(err)
			}
			s, err := inmem.New(e.Dims())
			if err != nil {
				b.Fatal(err)
			}
			frags := make([]vectors.Fragment, n)
			for i := range frags {
				frags[i] = vectors.Fragment{ID: uuid.NewString(), Key: ks[i], Value: "v", Tier: "shared", User: "u",
					Agents: []string{"a"}, Revision: uint64(i + 1), Model: e.Model(), Vector: vecs[i]}
			}
			if err := s.Upsert(ctx, frags); err != nil {
				b.Fatal(err)
			}
			runtime.GC()
			f := vectors.NewFilter("shared", "u", []string{"a"}, []string{"a"}, nil, nil)
			questions := keys(3000)[2000:]
			lat := make([]time.Duration, 0, vectorstest.MinLatencySamples)
			b.ResetTimer()
			for i := range max(b.N, vectorstest.MinLatencySamples) {
				start := time.Now()
				v, err := e.Embed(ctx, []string{questions[i%len(questions)]})
				if err != nil {
					b.Fatal(err)
				}
				hits, err := s.Search(ctx, v[0], f, 10)
				lat = append(lat, time.Since(start))
				if err != nil || len(hits) == 0 {
					b.Fatalf("search: %d hits, %v", len(hits), err)
				}
			}
			vectorstest.ReportLatency(b, "", lat)
			p50 := vectorstest.Percentile(lat, 0.5)
			if hashingP50 == 0 {
				hashingP50 = p50
			} else {
				b.ReportMetric(float64(p50)/float64(hashingP50), "p50-x-hashing")
			}
		})
	}
}
