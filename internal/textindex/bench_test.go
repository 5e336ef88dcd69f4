package textindex_test

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/cmem/cmem/internal/textindex"
)

// BenchmarkAdd indexes documents of 7–44 Zipf-distributed words of a
// 20,000-word vocabulary (vectorstest's bench text) into an index that
// grows to 10k documents: the text side of the view's ingest.
func BenchmarkAdd(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	zipf := rand.NewZipf(rng, 1.07, 1, 19_999)
	docs := make([]string, 10_000)
	for i := range docs {
		words := make([]string, 7+rng.IntN(38))
		for j := range words {
			words[j] = "w" + strconv.FormatUint(zipf.Uint64(), 36)
		}
		docs[i] = strings.Join(words, " ")
	}
	ids := make([]string, len(docs))
	for i := range ids {
		ids[i] = fmt.Sprintf("fragment-%06d", i)
	}
	b.Run("by-id", func(b *testing.B) {
		for range b.N {
			ix := textindex.New(textindex.Config{Stem: true})
			for i, d := range docs {
				ix.AddTagged(ids[i], uint32(i), d)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(docs)), "ns/doc")
	})
	// AddDoc, as inmem's view indexes its chunks: numbers, not ids.
	b.Run("by-number", func(b *testing.B) {
		for range b.N {
			ix := textindex.New(textindex.Config{Stem: true})
			for i, d := range docs {
				ix.AddDoc(uint32(i), uint32(i), d)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(docs)), "ns/doc")
	})
}
