package embedtest

import (
	"context"
	"fmt"
	"testing"

	"github.com/cmem/cmem/embedding"
)

// Bench reports e's throughput in texts/s on ~30-word texts, 64 per call,
// the same texts for every embedder so their figures compare.
func Bench(b *testing.B, e embedding.Embedder) {
	texts := make([]string, 64)
	for i := range texts {
		texts[i] = fmt.Sprintf("Report %d: revenue in the European smart home market grew while logistics "+
			"costs for vendor %d fell, and the finance team revised its forecast for privacy regulated "+
			"markets in region %d.", i, i%13, i%7)
	}
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	n := 0
	for b.Loop() {
		if _, err := e.Embed(ctx, texts); err != nil {
			b.Fatal(err)
		}
		n += len(texts)
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "texts/s")
}
