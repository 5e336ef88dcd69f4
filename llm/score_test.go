package llm_test

import (
	"context"
	"testing"

	"github.com/cmem/cmem/llm"
	"github.com/cmem/cmem/llm/offline"
)

// Seed 002's Eq. 1: S = ½(Σ Lᵢ + Σ Hᵢ).
func TestFinalScoreIsEq1(t *testing.T) {
	got := llm.FinalScore([]llm.RubricScore{{Low: 3, High: 6}, {Low: 2, High: 4}, {Low: 10, High: 10}})
	if got != 17.5 {
		t.Fatalf("FinalScore = %v, want (3+2+10 + 6+4+10)/2 = 17.5", got)
	}
	if llm.FinalScore(nil) != 0 {
		t.Fatal("no rubrics, no score")
	}
}

// The offline scorer's rules: an answer with particulars that answers the
// question outscores a refusal on every rubric, and every range lies in
// its rubric's bounds.
func TestOfflineScoreRanksAnswersAboveRefusals(t *testing.T) {
	p, err := offline.New(offline.Config{})
	if err != nil {
		t.Fatal(err)
	}
	rubrics := []llm.Rubric{
		{Name: "accuracy", Description: "the answer is correct and relevant", Min: 0, Max: 10},
		{Name: "specificity", Description: "concrete details", Min: 0, Max: 5},
		{Name: "usefulness", Description: "reusable for other users", Min: 1, Max: 3},
	}
	score := func(key, value string) []llm.RubricScore {
		s, err := p.Score(context.Background(), llm.ScoreRequest{Rubrics: rubrics, Key: key, Value: value})
		if err != nil || len(s) != len(rubrics) {
			t.Fatalf("score: %v %v", s, err)
		}
		for i, r := range s {
			if r.Name != rubrics[i].Name || r.Low > r.High || r.Low < rubrics[i].Min || r.High > rubrics[i].Max {
				t.Fatalf("range %+v outside rubric %+v", r, rubrics[i])
			}
		}
		return s
	}
	good := score("What food is Lyon famous for?", "Lyon is famous for its bouchons, quenelles and the Halles Paul Bocuse market, open since 1971.")
	bad := score("What food is Lyon famous for?", "I don't know.")
	for i := range rubrics {
		if good[i].High <= bad[i].High {
			t.Fatalf("rubric %s: answer %+v does not outscore refusal %+v", rubrics[i].Name, good[i], bad[i])
		}
	}
	if llm.FinalScore(good) <= llm.FinalScore(bad) {
		t.Fatal("final scores do not rank the answer above the refusal")
	}
}
