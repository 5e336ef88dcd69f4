package textindex

import (
	"cmp"
	"math/rand/v2"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// TestPrunedSearchIsExhaustive holds SearchDocs with MaxScore pruning to
// the exhaustive search's hits, scores bit for bit and order included,
// over Zipf-distributed texts (frequent words in most documents, as a
// natural vocabulary's), filters admitting about half the documents,
// churn that leaves dead postings, and chunks of one fragment that share
// a tag. It also checks that pruning did happen, or the comparison would
// prove nothing.
func TestPrunedSearchIsExhaustive(t *testing.T) {
	defer func() { pruning = true }()
	rng := rand.New(rand.NewPCG(3, 4))
	zipf := rand.NewZipf(rng, 1.07, 1, 1999)
	text := func(n int) string {
		w := make([]string, n)
		for i := range w {
			w[i] = "w" + strconv.FormatUint(zipf.Uint64(), 36)
		}
		return strings.Join(w, " ")
	}
	ix := New(Config{Stem: true})
	const docs = 6000
	tagOf := func(d uint32) uint32 { return d / 2 } // two chunks a tag
	for d := range uint32(docs) {
		ix.AddDoc(d, tagOf(d), text(2+rng.IntN(30)))
	}
	for range docs / 5 { // churn: replaced and removed documents
		d := uint32(rng.IntN(docs))
		if rng.IntN(2) == 0 {
			ix.RemoveDoc(d)
		} else {
			ix.AddDoc(d, tagOf(d), text(2+rng.IntN(30)))
		}
	}
	// The tie of inmem's view: by tag, then by number.
	tie := func(a, b uint32) int {
		if c := cmp.Compare(tagOf(a), tagOf(b)); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	}
	pruned := 0
	for q := range 400 {
		tags := make([]uint64, docs/64+1)
		n, toks := 0, 0
		ix.mu.RLock()
		for s, sl := range ix.slots {
			if h := ix.hot[s]; h.alive() && rng.IntN(2) == 0 {
				tags[h.tag>>6] |= 1 << (h.tag & 63)
				_ = sl
			}
		}
		for s := range ix.slots {
			if h := ix.hot[s]; h.alive() && tags[h.tag>>6]>>(h.tag&63)&1 != 0 {
				n, toks = n+1, toks+int(h.len)
			}
		}
		ix.mu.RUnlock()
		query, k := text(2+rng.IntN(7)), []int{1, 10, 50}[q%3]
		pruning = false
		want := ix.SearchDocs(query, k, tags, n, toks, tie)
		pruning = true
		before := prunedSearches.Load()
		got := ix.SearchDocs(query, k, tags, n, toks, tie)
		pruned += int(prunedSearches.Load() - before)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("query %q, k %d: pruned\n%v\nexhaustive\n%v", query, k, got, want)
		}
	}
	t.Logf("%d of 400 searches pruned", pruned)
	if pruned < 100 {
		t.Fatalf("only %d of 400 searches were pruned: the test compares too little", pruned)
	}
}
