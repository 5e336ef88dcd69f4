package offline

import "testing"

// TestCoverageKnowsSynonyms: a remembered answer covers a question that
// names its attribute by a synonym the word vectors do not know (WordNet's,
// through the embedder's Related), and still no question about another
// attribute of the same subject.
func TestCoverageKnowsSynonyms(t *testing.T) {
	p, err := New(Config{})
	if err != nil {
		t.Fatal(err)
	}
	const key = "What is the import tariff of Velmar Harbour?"
	const value = "The import tariff of Velmar Harbour is 12 percent."
	for _, c := range []struct {
		question string
		want     bool
	}{
		{"Tell me the import duty of Velmar Harbour.", true},
		{"What's Velmar Harbour's import tariff?", true},
		{"What is the import volume of Velmar Harbour?", false},
		{"What is the import duty of Orsk Harbour?", false},
	} {
		if got := p.covers(c.question, key, value); got != c.want {
			t.Errorf("covers(%q) = %v, want %v", c.question, got, c.want)
		}
	}
	// The other way round: a key in the everyday word covers the
	// question in the rarer one.
	if !p.covers("What is the berth width of Velmar Harbour?", "What is the berth breadth of Velmar Harbour?", "The berth breadth of Velmar Harbour is 40 metres.") {
		t.Error("breadth did not cover width")
	}
	if p.covers("What is the berth height of Velmar Harbour?", "What is the berth breadth of Velmar Harbour?", "The berth breadth of Velmar Harbour is 40 metres.") {
		t.Error("breadth covered height")
	}
}
