package inmem_test

import (
	"context"
	"fmt"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/cmem/cmem/vectors"
	"github.com/cmem/cmem/vectors/inmem"
	"github.com/cmem/cmem/vectors/vectorstest"
)

// TestHybridResultsDump writes, when CMEM_HYBRID_DUMP names a file, the
// hybrid search results (ids in order, and the bits of each score, cosine
// and lexical relevance) of 300 shared- and private-tier queries over a
// 30k-fragment bench corpus churned by deletes and re-upserts with new
// text. A change meant to keep rankings identical is checked by running it
// from the test binaries of both commits and comparing the files byte for
// byte (the reference-model tests check exactness; this checks sameness).
func TestHybridResultsDump(t *testing.T) {
	path := os.Getenv("CMEM_HYBRID_DUMP")
	if path == "" {
		t.Skip("CMEM_HYBRID_DUMP names no file")
	}
	ctx := context.Background()
	s, err := inmem.New(vectorstest.BenchDims)
	if err != nil {
		t.Fatal(err)
	}
	g := vectorstest.NewGen(2, vectorstest.BenchDims, vectorstest.BenchMix)
	var ids, gone []string
	for range 120 {
		batch := g.Fragments(256)
		g.WithBenchText(batch)
		for _, f := range batch {
			ids = append(ids, f.ID)
		}
		if err := s.Upsert(ctx, batch); err != nil {
			t.Fatal(err)
		}
	}
	for i := 0; i < len(ids); i += 7 {
		gone = append(gone, ids[i])
	}
	if err := s.Delete(ctx, gone); err != nil {
		t.Fatal(err)
	}
	kept, err := s.Get(ctx, ids[:3000])
	if err != nil {
		t.Fatal(err)
	}
	var again []vectors.Fragment
	for i := 0; i < len(kept); i += 11 {
		again = append(again, kept[i])
	}
	g.WithBenchText(again)
	if err := s.Upsert(ctx, again); err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	for i, q := range vectorstest.NewGen(3, vectorstest.BenchDims, vectorstest.BenchMix).BenchQueries(300) {
		f := q.Filter
		if i%3 == 1 {
			f.Tier = "private"
		}
		hits, err := s.HybridSearch(ctx, vectors.Query{Text: q.Text, Vector: q.Vector}, f, 10)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&out, "q%d %d\n", i, len(hits))
		for _, h := range hits {
			fmt.Fprintf(&out, "  %s %x %x %x\n", h.ID, math.Float32bits(h.Score), math.Float32bits(h.Cosine), math.Float32bits(h.Lexical))
		}
	}
	if err := os.WriteFile(path, []byte(out.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}
