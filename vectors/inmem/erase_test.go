package inmem

import (
	"strings"
	"testing"

	"github.com/cmem/cmem/vectors"
)

// Deleting a fragment, or upserting it with another text, leaves no word
// of its old text in its partition's text index, whether its value was
// one chunk or several (a long value's later chunks are numbered apart,
// chunks.go), while words other fragments hold stay.
func TestErasedFragmentLeavesNoWord(t *testing.T) {
	s, err := New(2)
	if err != nil {
		t.Fatal(err)
	}
	long := strings.Repeat("filler ", 300) + "quillbrook" // three chunks, the word in the last
	frag := func(id, value string) vectors.Fragment {
		return vectors.Fragment{ID: id, Tier: "shared", Key: "note", Value: value, Vector: []float32{1, 0}, Agents: []string{"a"}}
	}
	fs := []vectors.Fragment{frag("f1", "the zanzibarite diagnosis"), frag("f2", long), frag("f3", "the weather"), frag("f4", "old maplewort")}
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
	}
	for _, w := range []string{"the", "weather", "note", "new"} {
		if !ix.HasTerm(w) {
			t.Errorf("%q, which a fragment still holds, went from the text index", w)
		}
	}
}
