package semantic_test

import (
	"testing"

	"github.com/cmem/cmem/embedding/semantic"
)

// TestRelatedWords: WordNet's synonyms, derivations and definitions relate
// words the vectors keep apart, and leave apart words that are only of a
// kind (a drink is a food, yet asks for something else) or that oppose.
func TestRelatedWords(t *testing.T) {
	e := semantic.Must()
	for _, c := range []struct {
		a, b string
		want bool
	}{
		{"tariff", "duty", true},   // synonyms (vector cosine 0.26)
		{"vigor", "energy", true},  // synonyms (0.19)
		{"width", "breadth", true}, // synonyms (0.46)
		{"ceiling", "limit", true}, // "an upper limit on what is allowed"
		{"Tariffs", "duty", true},  // case and plural
		{"duty", "tariff", true},   // either order
		{"tariff", "tariff", true}, // itself
		{"duration", "time", true}, // a measure and its kind
		{"drink", "food", false},   // a hypernym, but not of a measure
		{"revenue", "cost", false}, // different things
		{"width", "height", false}, // different dimensions
		{"tariff", "zzyzx", false}, // outside the table
		{"", "duty", false},
	} {
		if got := e.Related(c.a, c.b); got != c.want {
			t.Errorf("Related(%q, %q) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
}
