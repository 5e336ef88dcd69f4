package offline

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cmem/cmem/llm"
)

// Asked what John's main focus is, his reply to Maria's question about
// it answers, though it repeats none of the words asked and his earlier
// turn says "politics". A reply to another speaker's question said long
// after it gains nothing.
func TestReplyAnswersItsPrompt(t *testing.T) {
	p, err := New(Config{})
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Date(2023, 5, 1, 10, 0, 0, 0, time.UTC)
	ask := func(replyAt time.Time) llm.AnswerResult {
		res, err := p.Answer(context.Background(), llm.AnswerRequest{
			Subquery: "What is John's main focus in local politics?",
			Memory: []llm.MemoryItem{
				{ID: "said", Value: "John: Politics is where I can help the most.", Score: 1, ObservedAt: t0},
				{ID: "prompt", Value: "Maria: Wow, what is your main focus going to be?", Score: 1, ObservedAt: t0.Add(30 * time.Second)},
				{ID: "reply", Value: "John: Improving education and infrastructure in our town, those matter most.", Score: 1, ObservedAt: replyAt},
			},
			Coverage: 2, // memory is all there is, with no coverage claimed
		})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	res := ask(t0.Add(time.Minute))
	if !slices.Contains(res.Cited, "reply") || !strings.Contains(res.Response, "education") {
		t.Fatalf("answer %q (cited %v), want John's reply", res.Response, res.Cited)
	}
	if res := ask(t0.Add(time.Hour)); slices.Contains(res.Cited, "reply") {
		t.Fatalf("a turn an hour after the question was taken for its reply: %q", res.Response)
	}
}
