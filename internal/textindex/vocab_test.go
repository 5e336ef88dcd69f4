package textindex

import "testing"

// Indexes sharing a vocabulary: a term goes from an index when its last
// document there goes, and from the vocabulary, name and all, only when
// no document of any index holds it; a pending document counts as
// holding its terms. The check reads the vocabulary's own arrays, not
// only what a lookup finds.
func TestSharedVocabDropsAnErasedName(t *testing.T) {
	v := NewVocab()
	a, b := NewShared(Config{Stem: true}, v), NewShared(Config{Stem: true}, v)
	a.AddDoc(1, 1, "zanzibarite wonders harbour")
	b.AddDoc(1, 1, "harbour lights")
	a.Search("wonders", 5, nil) // a's postings built
	a.AddDoc(2, 2, "quillbrook wonders")
	b.AddDoc(2, 2, "quillbrook") // pending in b
	a.RemoveDoc(1)
	a.RemoveDoc(2) // pending when removed
	for _, w := range []string{"zanzibarit", "wonder"} {
		if a.HasTerm(w) || v.Has(w) {
			t.Errorf("%q is still held after its last document went", w)
		}
		for i, name := range v.names {
			if name == w {
				t.Errorf("vocabulary term %d still holds %q", i, w)
			}
		}
		if v.table.find(v.names, w, hashTerm(w)) >= 0 {
			t.Errorf("the term table still finds %q", w)
		}
	}
	// "harbour" and "quillbrook" went from a, but b still holds them.
	for _, w := range []string{"harbour", "quillbrook"} {
		if a.HasTerm(w) {
			t.Errorf("%q is still in the index its documents left", w)
		}
		if !b.HasTerm(w) || !v.Has(w) {
			t.Errorf("%q, which b holds, went", w)
		}
	}
	if hits := b.SearchDocs("quillbrook", 5, []uint64{^uint64(0)}, 2, 3, nil); len(hits) != 1 || hits[0].Doc != 2 {
		t.Errorf("b's search for quillbrook = %v, want its document 2", hits)
	}
	b.RemoveDoc(1)
	b.RemoveDoc(2)
	if n := v.Len(); n != 0 {
		t.Errorf("the vocabulary holds %d terms after every document went", n)
	}
	for i, name := range v.names {
		if name != "" {
			t.Errorf("vocabulary term %d still holds %q", i, name)
		}
	}
}
