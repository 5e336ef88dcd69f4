package memory_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"testing"
	"time"

	"github.com/cmem/cmem/embedding"
	"github.com/cmem/cmem/embedding/hashing"
	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/events/eventlog/logtest"
	"github.com/cmem/cmem/projectors"
	"github.com/cmem/cmem/projectors/memory"
	"github.com/cmem/cmem/vectors"
	"github.com/cmem/cmem/vectors/inmem"
	"github.com/cmem/cmem/vectors/weaviate"
	"github.com/cmem/cmem/vectors/weaviate/weaviatetest"
)

func TestMain(m *testing.M) {
	code := m.Run()
	weaviatetest.StopShared()
	os.Exit(code)
}

// BenchmarkViewIngest is fragment ingest through the projector: FragmentWritten
// events already on the log, replayed by a runner into a vector view
// (decode, vector decode, batched upsert), per backend.
func BenchmarkViewIngest(b *testing.B) {
	e := hashing.New(256)
	backends := map[string]struct {
		n    int
		open func(b *testing.B) vectors.Store
	}{
		"inmem": {20_000, func(b *testing.B) vectors.Store {
			s, err := inmem.New(e.Dims())
			if err != nil {
				b.Fatal(err)
			}
			return s
		}},
		"weaviate": {2_000, func(b *testing.B) vectors.Store {
			w := weaviatetest.Shared(b)
			s, err := weaviate.Open(context.Background(), weaviate.Config{URL: w.URL, GRPCAddr: w.GRPCAddr, Class: weaviatetest.Class(b), Dims: e.Dims()})
			if err != nil {
				b.Fatal(err)
			}
			return s
		}},
	}
	for name, be := range backends {
		b.Run(name, func(b *testing.B) {
			l := logtest.Open(b, "")
			fillFragments(b, l.AppendBatch, e, be.n)
			var total time.Duration
			for b.Loop() {
				store := be.open(b)
				r, err := projectors.NewRunner(l, logtest.Logger(), memory.NewViewProjection("vector-view", store, e))
				if err != nil {
					b.Fatal(err)
				}
				ctx, cancel := context.WithCancel(context.Background())
				done := make(chan struct{})
				start := time.Now()
				go func() { defer close(done); _ = r.Run(ctx) }()
				if err := r.WaitFor(context.Background(), uint64(be.n)); err != nil {
					b.Fatal(err)
				}
				total += time.Since(start)
				cancel()
				<-done
				if n, _ := store.Count(context.Background()); n != be.n {
					b.Fatalf("view holds %d fragments, want %d", n, be.n)
				}
				_ = store.Close()
			}
			b.ReportMetric(float64(b.N*be.n)/total.Seconds(), "fragments/s")
			b.ReportMetric(0, "ns/op")
		})
	}
}

func fillFragments(b *testing.B, appendBatch func(context.Context, []events.Envelope) ([]uint64, error), e embedding.Embedder, n int) {
	rng := rand.New(rand.NewPCG(1, 1))
	batch := make([]events.Envelope, 0, 1000)
	flush := func() {
		if _, err := appendBatch(context.Background(), batch); err != nil {
			b.Fatal(err)
		}
		batch = batch[:0]
	}
	for i := range n {
		key := fmt.Sprintf("topic %d fact %d about city %d", rng.IntN(500), i, rng.IntN(50))
		vecs, _ := e.Embed(context.Background(), []string{key})
		fw := &events.FragmentWritten{
			ID: events.StepID("bench", fmt.Sprint(i)), Key: key, Value: "value " + key, Tier: []string{"private", "shared"}[i%2],
			User: fmt.Sprintf("u%d", rng.IntN(200)), Agents: []string{fmt.Sprintf("a%d", rng.IntN(100))}, Resources: []string{},
			CreatedAt: time.Now().UTC(), Provenance: events.ProvenanceTransitive, Policy: events.PolicyTrace{Kind: "simple", Scope: "global"},
			Embedding: &events.Embedding{Model: e.Model(), Dims: e.Dims(), Vector: events.EncodeVector(vecs[0])},
		}
		env, err := events.New(events.Meta{Source: "bench", Actor: fw.User}, fw)
		if err != nil {
			b.Fatal(err)
		}
		if batch = append(batch, env); len(batch) == cap(batch) {
			flush()
		}
	}
	if len(batch) > 0 {
		flush()
	}
}
