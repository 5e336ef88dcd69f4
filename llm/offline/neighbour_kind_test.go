package offline

import (
	"context"
	"testing"
	"time"

	"github.com/cmem/cmem/llm"
)

// kindAsk answers question from one turn of the invented chat.
func kindAsk(t *testing.T, question, turn string) string {
	t.Helper()
	p, err := New(Config{})
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Date(2024, 9, 3, 17, 0, 0, 0, time.UTC)
	res, err := p.Answer(context.Background(), llm.AnswerRequest{
		Subquery: question,
		Memory:   []llm.MemoryItem{{ID: "t1", Value: turn, Score: 1, ObservedAt: t0}},
		Coverage: 2,
	})
	if err != nil {
		t.Fatal(err)
	}
	return res.Response
}

// A sentence that adds one word of the kind asked ("cello" to "What
// instrument …") answers with that word; it is no restatement handed over
// to the next sentence, which says more but not what was asked. Fails
// without addsTheKind before answeringNeighbour (the answer then comes
// from the second sentence) and without addedOfKind at the span (the
// sentence less the question's words).
func TestOneAddedWordOfTheKindAsked(t *testing.T) {
	q := "What instrument is Rosa learning to play this autumn?"
	turn := "Rosa: I'm learning how to play the cello now. I mostly practise scales but want to try folk tunes and duets soon."
	if got := kindAsk(t, q, turn); got != "cello" {
		t.Fatalf("answer %q, want cello", got)
	}
	// A judgement after a verb of being is no thing of the kind: the
	// sentence restates and its neighbour answers.
	q = "What dessert did Rosa bake with pears, walnuts and honey?"
	turn = "Rosa: It has pears, walnuts and honey - it's delicious! My favourite bake this year is that spiced pear crumble."
	if got := kindAsk(t, q, turn); got == "delicious" || got == "it's delicious" {
		t.Fatalf("answer %q, want the neighbour naming the dessert", got)
	}
}
