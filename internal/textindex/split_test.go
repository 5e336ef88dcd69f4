package textindex_test

import (
	"cmp"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/cmem/cmem/internal/textindex"
)

// A DocSearch run by one, two or three goroutines returns SearchDocs'
// hits exactly (documents, order, and every score's bits), over an index
// whose frequent terms' postings span several pieces, with removed
// documents (dead slots) among them, filters admitting part of the
// documents, depths from 1 to 60, and ties (documents of equal text)
// broken by the caller's order.
func TestDocSearchMatchesSearchDocs(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	zipf := rand.NewZipf(rng, 1.1, 1, 299)
	text := func(n int) string {
		w := make([]string, n)
		for i := range w {
			w[i] = "w" + strconv.FormatUint(zipf.Uint64(), 36)
		}
		return strings.Join(w, " ")
	}
	ix := textindex.New(textindex.Config{Stem: true})
	const docs = 24_000
	lens := make([]int, docs)
	for d := range uint32(docs) {
		s := text(3 + rng.IntN(12))
		if d%500 == 7 {
			s = "w0 w1" // equal texts: equal scores, ordered by tie
		}
		lens[d] = ix.AddDoc(d, d, s)
	}
	gone := map[uint32]bool{}
	for range docs / 10 {
		d := uint32(rng.IntN(docs))
		if !gone[d] {
			ix.RemoveDoc(d)
			gone[d] = true
		}
	}
	tie := func(a, b uint32) int { return cmp.Compare(b, a) } // not the slots' order
	for q := range 60 {
		query := text(1 + rng.IntN(8))
		k := 1 + rng.IntN(60)
		tags := make([]uint64, (docs+63)/64)
		n, toks := 0, 0
		for d := range uint32(docs) {
			if !gone[d] && (q%7 == 0 || rng.IntN(10) < 6) {
				tags[d/64] |= 1 << (d % 64)
				n, toks = n+1, toks+lens[d]
			}
		}
		want := ix.SearchDocs(query, k, tags, n, toks, tie)
		if len(want) == 0 {
			t.Fatalf("query %q found nothing: the comparison is empty", query)
		}
		for helpers := range 3 {
			got := runDocSearch(ix, helpers, query, k, tags, n, toks, tie)
			if len(got) != len(want) {
				t.Fatalf("query %q k %d, %d helpers: %d hits, want %d", query, k, helpers, len(got), len(want))
			}
			for i := range got {
				if got[i].Doc != want[i].Doc || math.Float64bits(got[i].Score) != math.Float64bits(want[i].Score) {
					t.Fatalf("query %q k %d, %d helpers: hit %d is %+v, want %+v", query, k, helpers, i, got[i], want[i])
				}
			}
		}
	}
	if got := runDocSearch(ix, 1, "w0", 0, nil, 1, 1, tie); got != nil {
		t.Fatalf("k = 0: %v, want nil as SearchDocs", got)
	}
}

// runDocSearch runs a DocSearch on this goroutine and helpers others,
// this one rescuing the tasks a helper is slow to finish.
func runDocSearch(ix *textindex.Index, helpers int, query string, k int, tags []uint64, n, toks int, tie func(a, b uint32) int) []textindex.DocHit {
	d := ix.StartSearchDocs(query, k, tags, n, toks, tie)
	var wg sync.WaitGroup
	for range helpers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				if did, more := d.Step(); !did && !more {
					return
				}
			}
		}()
	}
	for !d.Finished() {
		if did, _ := d.Step(); !did {
			d.Rescue()
		}
	}
	hits := d.Hits()
	wg.Wait()
	d.Release()
	return hits
}
