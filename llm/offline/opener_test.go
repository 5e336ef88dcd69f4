package offline

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/cmem/cmem/llm"
)

// Courtesy that opens a turn is dropped, part by part; a part that says
// anything else, or an opener with nothing after it, stays.
func TestDropOpener(t *testing.T) {
	for in, want := range map[string]string{
		"Hey Gina, I had to shut down my bank account.":             "I had to shut down my bank account.",
		"Thanks, Maria! Improving education is what matters to me.": "Improving education is what matters to me.",
		"Yeah, for sure! This trilogy is one of my faves.":          "This trilogy is one of my faves.",
		"Great work on the garden, it looks lovely.":                "Great work on the garden, it looks lovely.",
		"Thanks, Caroline!": "Thanks, Caroline!",
		"Paris, London and Rome are the cities we saw on the long trip.": "Paris, London and Rome are the cities we saw on the long trip.",
	} {
		if got := dropOpener(in); got != want {
			t.Errorf("dropOpener(%q) = %q, want %q", in, got, want)
		}
	}
}

// Asked why, a turn that opens with a greeting and then only restates
// the question is answered by its next sentence, not by the greeting:
// without dropping the opener, "Hey Gina" counts as what the sentence
// adds and is cut out as the answer.
func TestOpenerIsNotTheAnswer(t *testing.T) {
	p, err := New(Config{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := p.Answer(context.Background(), llm.AnswerRequest{
		Subquery: "Why did Jon shut down his bank account?",
		Memory: []llm.MemoryItem{{ID: "turn", Score: 1, ObservedAt: time.Date(2023, 4, 3, 13, 26, 0, 0, time.UTC),
			Value: "Jon: Hey Gina, I had to shut down my bank account. It was tough, but I needed to do it for my business."}},
		Coverage: 2,
	})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(res.Response, "Gina") || !strings.Contains(res.Response, "business") {
		t.Fatalf("answer %q, want the reason given (business), not the greeting", res.Response)
	}
}
