package resources

import (
	"math"
	"slices"
	"testing"
)

// TestBM25Scores checks the index against the formula written out, with
// k1 = 1.2, b = 0.75 and idf = ln(1 + (N − df + 0.5) / (df + 0.5)).
func TestBM25Scores(t *testing.T) {
	docs := []kbDocument{
		{ID: "a", Text: "apple apple banana"},
		{ID: "b", Text: "banana cherry cherry cherry date"},
		{ID: "c", Text: "apple"},
	}
	ix := newBM25Index(docs, 100)
	const n, avgdl = 3.0, 9.0 / 3
	idf := func(df float64) float64 { return math.Log(1 + (n-df+0.5)/(df+0.5)) }
	term := func(tf, dl, df float64) float64 {
		return idf(df) * tf * (1.2 + 1) / (tf + 1.2*(1-0.75+0.75*dl/avgdl))
	}
	want := map[string]float64{
		"a": term(2, 3, 2) + term(1, 3, 2), // apple, banana
		"b": term(1, 5, 2),                 // banana
		"c": term(1, 1, 2),                 // apple
	}
	hits := ix.search("Apple banana apple", 10) // a repeated query term counts once
	if len(hits) != 3 {
		t.Fatalf("hits = %v, want 3", hits)
	}
	for _, h := range hits {
		id := ix.docs[h.doc].id
		if math.Abs(h.score-want[id]) > 1e-12 {
			t.Errorf("score of %s = %v, want %v", id, h.score, want[id])
		}
	}
	if !slices.IsSortedFunc(hits, func(x, y hit) int {
		if better(x, y) {
			return -1
		}
		return 1
	}) {
		t.Errorf("hits not best first: %v", hits)
	}
}

func TestBM25TopKAndTies(t *testing.T) {
	docs := make([]kbDocument, 20)
	for i := range docs {
		docs[i] = kbDocument{ID: string(rune('a' + i)), Text: "same words here"}
	}
	ix := newBM25Index(docs, 100)
	hits := ix.search("words", 4)
	var ids []string
	for _, h := range hits {
		ids = append(ids, ix.docs[h.doc].id)
	}
	if !slices.Equal(ids, []string{"a", "b", "c", "d"}) {
		t.Fatalf("ties = %v, want registration order a..d", ids)
	}
}

func TestTokenize(t *testing.T) {
	got := tokenize("Crème-brûlée, 2x ÉTÉ_42 l'été!")
	want := []string{"crème", "brûlée", "2x", "été", "42", "l", "été"}
	if !slices.Equal(got, want) {
		t.Fatalf("tokenize = %q, want %q", got, want)
	}
}

func TestSnippet(t *testing.T) {
	for _, tt := range []struct {
		text string
		n    int
		want string
	}{
		{"short", 10, "short"},
		{"  a\n\tb  ", 10, "a b"},
		{"abc def", 7, "abc def"},
		{"abc def", 6, "abc de…"},
		{"abc def", 3, "abc…"},
		{"ééééé", 2, "éé…"},
	} {
		if got := snippet(tt.text, tt.n); got != tt.want {
			t.Errorf("snippet(%q, %d) = %q, want %q", tt.text, tt.n, got, tt.want)
		}
	}
}
