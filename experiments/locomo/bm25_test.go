package locomo

import (
	"slices"
	"testing"
)

// A three-document corpus whose order is clear by hand: "cello" is in d2
// and d3, "teacher" only in d3, and d3 is the longer.
func TestBM25Ranks(t *testing.T) {
	ix := newLexical()
	ix.Add("d1", "Ana adopted a beagle named Pepper")
	ix.Add("d2", "Bruno plays the cello")
	ix.Add("d3", "Bruno's cello teacher is Mrs. Okafor at the conservatory")
	if got := ix.Search("cello teacher", 10); !slices.Equal(got, []string{"d3", "d2"}) {
		t.Errorf("cello teacher: %v, want [d3 d2]", got)
	}
	// Only "cello": the shorter document wins on length normalisation.
	if got := ix.Search("CELLO?", 10); !slices.Equal(got, []string{"d2", "d3"}) {
		t.Errorf("cello: %v, want [d2 d3]", got)
	}
	if got := ix.Search("beagle cello", 1); !slices.Equal(got, []string{"d1"}) {
		t.Errorf("k=1: %v, want [d1] (beagle is rarer than cello)", got)
	}
	if got := ix.Search("violin", 10); len(got) != 0 {
		t.Errorf("no shared word: %v", got)
	}
}
