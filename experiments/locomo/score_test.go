package locomo

import (
	"math"
	"testing"
)

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

// The scorer against values computed by hand from LoCoMo's rules.
func TestNormalize(t *testing.T) {
	for in, want := range map[string]string{
		"The cat, and a dog's bowl!": "cat dogs bowl",
		"An apple a day":             "apple day",
		"theatre and THE band":       "theatre band",
		"7 May, 2023":                "7 may 2023",
		// — is not ASCII punctuation, so it stays, and not a word
		// character, so "the" after it is a word (Python's \b agrees).
		"café—the best": "café— best",
	} {
		if got := Normalize(in); got != want {
			t.Errorf("Normalize(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestTokenF1(t *testing.T) {
	cases := []struct {
		pred, gold string
		want       float64
	}{
		// pred → puppi is beagl, gold → beagl: P 1/3, R 1 → 0.5
		{"The puppy is a beagle", "beagle", 0.5},
		{"7 May, 2023", "7 May 2023", 1},
		// stems: running → run, adopted → adopt
		{"she adopted", "adopting", 2.0 / 3},
		{"nothing alike", "beagle", 0},
		{"", "beagle", 0},
		// duplicates count once each side: pred run run, gold run → P 1/2 R 1
		{"run run", "run", 2.0 / 3},
	}
	for _, c := range cases {
		if got := TokenF1(c.pred, c.gold); !near(got, c.want) {
			t.Errorf("TokenF1(%q, %q) = %v, want %v", c.pred, c.gold, got, c.want)
		}
	}
}

func TestScoreByCategory(t *testing.T) {
	cases := []struct {
		cat        int
		pred, gold string
		want       float64
	}{
		// golds "running" (best 1) and "cello" (vs "cello lessons": 2/3) → 5/6
		{1, "running, cello lessons", "running, cello", 5.0 / 6},
		// without splitting the same pair would score 0.8: the split matters
		{4, "running, cello lessons", "running, cello", 0.8},
		{2, "2 March 2024", "2 March 2024", 1},
		// category 3: only "Likely yes" counts: like ye vs ye → 2/3
		{3, "yes", "Likely yes; she wants to become a veterinary nurse", 2.0 / 3},
		{5, "Not mentioned in the conversation", "", 1},
		{5, "No information available about that.", "", 1},
		{5, "Pepper", "", 0},
	}
	for _, c := range cases {
		got, ok := Score(c.cat, c.pred, c.gold)
		if !ok || !near(got, c.want) {
			t.Errorf("Score(%d, %q, %q) = %v %v, want %v", c.cat, c.pred, c.gold, got, ok, c.want)
		}
	}
	if _, ok := Score(9, "a", "a"); ok {
		t.Error("category 9 scored")
	}
}

func TestRecall(t *testing.T) {
	ev := []string{"D1:1", "D2:4"}
	ranked := []string{"D2:4", "D3:1", "", "D1:1"}
	for k, want := range map[int]float64{1: 0.5, 3: 0.5, 4: 1, 10: 1} {
		if got := Recall(ev, ranked, k); !near(got, want) {
			t.Errorf("Recall@%d = %v, want %v", k, got, want)
		}
	}
	if Recall(nil, ranked, 10) != 0 {
		t.Error("recall without evidence")
	}
}
