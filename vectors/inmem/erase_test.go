package inmem

import (
	"strings"
	"testing"

	"github.com/cmem/cmem/vectors"
)

// Deleting a fragment, or upserting it with another text, leaves no word
// of its old text in its partition's text index nor in the store's
// vocabulary, whether its value was one chunk or several (a long value's
// later chunks are numbered apart, chunks.go), while words other
// fragments hold stay, in the vocabulary also when only another
// partition holds them.
func TestErasedFragmentLeavesNoWord(t *testing.T) {
	s, err := New(2)
	if err != nil {
		t.Fatal(err)
	}
	long := strings.Repeat("filler ", 300) + "quillbrook" // three chunks, the word in the last
	frag := func(id, value string) vectors.Fragment {
		return vectors.Fragment{ID: id, Tier: "shared", Key: "note", Value: value, Vector: []float32{1, 0}, Agents: []string{"a"}}
	}
	private := vectors.Fragment{ID: "p1", Tier: "private", User: "u", Key: "memo", Value: "a diagnosis", Vector: []float32{0, 1}, Agents: []string{"a"}}
	fs := []vectors.Fragment{frag("f1", "the zanzibarite diagnosis"), frag("f2", long), frag("f3", "the weather"), frag("f4", "old maplewort"), private}
	if err := s.Upsert(t.Context(), fs); err != nil {
		t.Fatal(err)
	}
	ix := s.text[keyOf("shared", "")]
	for _, w := range []string{"zanzibarite", "quillbrook", "maplewort"} {
		if !ix.HasTerm(w) {
			t.Fatalf("%q is not indexed", w)
		}
	}
	if err := s.Delete(t.Context(), []string{"f1", "f2"}); err != nil {
		t.Fatal(err)
	}
	if err := s.Upsert(t.Context(), []vectors.Fragment{frag("f4", "new text")}); err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"zanzibarite", "diagnosis", "quillbrook", "filler", "maplewort", "old"} {
		if ix.HasTerm(w) {
			t.Errorf("%q is still in the text index after its fragment's text went", w)
		}
		// The store's vocabulary, which every partition's index shares,
		// drops the name too, when no other partition holds it.
		if term := ix.Tokens(w)[0]; w != "diagnosis" && s.vocab.Has(term) {
			t.Errorf("%q is still in the store's vocabulary after its fragment's text went", w)
		}
	}
	for _, w := range []string{"the", "weather", "note", "new"} {
		if !ix.HasTerm(w) {
			t.Errorf("%q, which a fragment still holds, went from the text index", w)
		}
	}
	// "diagnosis" went from the shared tier's index but a private
	// fragment holds it: the vocabulary keeps it, the shared index not.
	if !s.vocab.Has(ix.Tokens("diagnosis")[0]) || ix.HasTerm("diagnosis") {
		t.Error("a word another partition holds went from the vocabulary, or stayed in the index it left")
	}
}
