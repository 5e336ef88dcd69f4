package hashing_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/cmem/cmem/embed/hashing"
)

// BenchmarkHashingEmbed reports texts/s for ~30-word texts, 64 per call.
func BenchmarkHashingEmbed(b *testing.B) {
	texts := make([]string, 64)
	for i := range texts {
		texts[i] = fmt.Sprintf("Report %d: revenue in the European smart home market grew while logistics "+
			"costs for vendor %d fell, and the finance team revised its forecast for privacy regulated "+
			"markets in region %d.", i, i%13, i%7)
	}
	h := hashing.New(0)
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	n := 0
	for b.Loop() {
		if _, err := h.Embed(ctx, texts); err != nil {
			b.Fatal(err)
		}
		n += len(texts)
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "texts/s")
}
