package offline

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/cmem/cmem/llm"
)

// Asked how many of a thing someone has, the total is told in parts over
// the chat: the largest count said answers, not the best-worded turn's
// smaller one. Without the rule the turn saying "two cats" answers.
func TestLargestCountAnswersATotal(t *testing.T) {
	p, err := New(Config{})
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2021, 3, 2, 9, 0, 0, 0, time.UTC)
	res, err := p.Answer(context.Background(), llm.AnswerRequest{
		Subquery: "How many cats does Priya have?",
		Memory: []llm.MemoryItem{
			{ID: "two", Score: 1, ObservedAt: at, Value: "Priya: My two cats have been chasing each other all morning, the cats are wild."},
			{ID: "three", Score: 0.8, ObservedAt: at.Add(40 * 24 * time.Hour), Value: "Priya: Look at this! [shared a photo of three cats asleep on a sofa]"},
		},
		Coverage: 2,
	})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(res.Response, "three") {
		t.Fatalf("answer %q (cited %v), want the largest count said, three", res.Response, res.Cited)
	}
}

func TestLargestCountOnlyForATotal(t *testing.T) {
	cands := []rankedSentence{{text: "Priya: Two people came early and five people came late."}}
	if _, ok := largestCount("How many people came to Priya's party?", cands); ok {
		t.Fatal("one occasion's count was taken for a total")
	}
	if _, ok := largestCount("How many times has Priya been to Lisbon?", []rankedSentence{{text: "Priya: three times now"}}); ok {
		t.Fatal("a count of occasions was taken for a count of things")
	}
	if got, ok := largestCount("How many sisters does Priya have?", []rankedSentence{{text: "Priya: my two sisters"}, {text: "Priya: all 4 sisters came"}}); !ok || got != "4" {
		t.Fatalf("largestCount = %q, %v; want 4", got, ok)
	}
}
