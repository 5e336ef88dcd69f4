package textindex

import "testing"

// After the last document holding a word goes, no term of the index
// holds the word's name, nor does the term table lead to it: the check
// reads the index's own arrays, not only what a lookup finds.
func TestErasedWordLeavesNoName(t *testing.T) {
	ix := New(Config{Stem: true})
	ix.AddDoc(1, 1, "zanzibarite wonders")
	ix.AddDoc(2, 2, "wonders")
	ix.Search("wonders", 5, nil) // built postings
	ix.AddDoc(3, 3, "quillbrook wonders")
	ix.RemoveDoc(1)
	ix.RemoveDoc(3) // pending when removed
	for _, w := range []string{"zanzibarit", "quillbrook"} {
		for i, name := range ix.vocab.names {
			if name == w {
				t.Errorf("term %d still holds %q", i, w)
			}
		}
		if ix.vocab.table.find(ix.vocab.names, w, hashTerm(w)) >= 0 {
			t.Errorf("the term table still finds %q", w)
		}
	}
}
