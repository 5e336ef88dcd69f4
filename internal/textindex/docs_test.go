package textindex_test

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/cmem/cmem/internal/textindex"
)

// AddDoc's documents, churned (replaced, removed, the removed ones often
// the last holders of their words, with searches seldom, so postings are
// built in batches that removals cut into), score as a fresh index of
// the same texts under ids, and HasTerm knows exactly the words some
// document still holds.
func TestDocsChurnMatchesRebuild(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	ix := textindex.New(textindex.Config{Stem: true})
	docs := map[uint32]string{}
	word := func() string { return "w" + strconv.Itoa(rng.IntN(400)) }
	text := func() string {
		var s string
		for range 1 + rng.IntN(6) {
			s += word() + " "
		}
		return s
	}
	all := make([]uint64, 1)
	all[0] = ^uint64(0)
	for step := range 20000 {
		doc := uint32(rng.IntN(64))
		if rng.IntN(3) == 0 {
			if got, want := ix.RemoveDoc(doc), docs[doc] != ""; got != want {
				t.Fatalf("RemoveDoc(%d) = %v, want %v", doc, got, want)
			}
			delete(docs, doc)
		} else {
			docs[doc] = text()
			ix.AddDoc(doc, doc, docs[doc])
		}
		if step%997 != 0 {
			continue
		}
		fresh, held, toks := textindex.New(textindex.Config{Stem: true}), map[string]bool{}, 0
		for d, s := range docs {
			fresh.Add(fmt.Sprintf("%03d", d), s)
			for _, w := range ix.Tokens(s) {
				held[w] = true
			}
			toks += len(ix.Tokens(s))
		}
		for w := range 400 {
			if word := "w" + strconv.Itoa(w); ix.HasTerm(word) != held[word] {
				t.Fatalf("step %d: HasTerm(%s) = %v, want %v", step, word, !held[word], held[word])
			}
		}
		for range 5 {
			q := text()
			got := ix.SearchDocs(q, 10, all, len(docs), toks, cmp.Compare[uint32])
			want := fresh.Search(q, 10, nil)
			if len(got) != len(want) {
				t.Fatalf("step %d %q: %v, want %v", step, q, got, want)
			}
			for i := range got {
				if fmt.Sprintf("%03d", got[i].Doc) != want[i].ID || got[i].Score != want[i].Score {
					t.Fatalf("step %d %q: hit %d is %v, want %v", step, q, i, got[i], want[i])
				}
			}
		}
	}
}

// Removing the only document holding a word leaves nothing of the word
// in the index, whether its postings were built (a search ran) or were
// still pending, and whichever of AddDoc and Add indexed it.
func TestRemovedWordIsGone(t *testing.T) {
	for _, searched := range []bool{false, true} {
		ix := textindex.New(textindex.Config{Stem: true})
		ix.AddDoc(1, 1, "the patient's diagnosis", "zanzibarite")
		ix.Add("a", "the weather today quixotically")
		ix.AddDoc(2, 2, "the weather")
		if searched {
			ix.Search("weather", 5, nil)
		}
		if !ix.HasTerm("zanzibarite") || !ix.HasTerm("quixotically") {
			t.Fatal("HasTerm misses a word that is indexed")
		}
		ix.RemoveDoc(1)
		ix.Remove("a")
		for _, w := range []string{"zanzibarite", "diagnosis", "patient", "quixotically", "today"} {
			if ix.HasTerm(w) {
				t.Errorf("searched=%v: %q is still in the index after its only document went", searched, w)
			}
		}
		if !ix.HasTerm("weather") || !ix.HasTerm("the") {
			t.Errorf("searched=%v: a word another document holds went too", searched)
		}
	}
}
