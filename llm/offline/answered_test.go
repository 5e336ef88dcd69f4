package offline

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cmem/cmem/llm"
)

// askedAndReplied answers question from two turns: ask by one speaker,
// reply by the other said gap later.
func askedAndReplied(t *testing.T, question, ask, reply string, gap time.Duration) llm.AnswerResult {
	t.Helper()
	p, err := New(Config{})
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Date(2024, 5, 6, 19, 0, 0, 0, time.UTC)
	res, err := p.Answer(context.Background(), llm.AnswerRequest{
		Subquery: question,
		Memory: []llm.MemoryItem{
			{ID: "ask", Value: ask, Score: 1, ObservedAt: t0},
			{ID: "reply", Value: reply, Score: 0.9, ObservedAt: t0.Add(gap)},
		},
		Coverage: 2, // memory is all there is
	})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// Asked what someone does on Sunday mornings, the other speaker's
// question restates it; the reply that follows tells it
// (answeredQuestion). Fails without answeredQuestion (the answer is cut
// from the question asked back).
func TestQuestionAskedIsAnsweredByTheReply(t *testing.T) {
	q := "What does Ines do on Sunday mornings?"
	ask := "Bruno: So Ines, what do you usually do on Sunday mornings?"
	reply := "Ines: Pottery class at the community studio, then brunch with my sister."
	res := askedAndReplied(t, q, ask, reply, 40*time.Second)
	if strings.Contains(res.Response, "?") || !slices.Contains(res.Cited, "reply") {
		t.Fatalf("answer %q (cited %v), want it from the reply", res.Response, res.Cited)
	}
}

// A question that says what it asks to confirm ("they stand for hope,
// right?") adds words to the question and is kept: its reply need not
// say it again.
func TestQuestionThatTellsIsKept(t *testing.T) {
	q := "What do the lanterns stand for according to Ines?"
	ask := "Ines: The lanterns stand for hope and remembrance, right?"
	reply := "Bruno: Honestly I never knew that, so cool."
	res := askedAndReplied(t, q, ask, reply, 40*time.Second)
	if !strings.Contains(res.Response, "hope") {
		t.Fatalf("answer %q, want hope from the question that tells it", res.Response)
	}
}
