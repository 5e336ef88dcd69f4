package offline

import (
	"context"
	"testing"
	"time"

	"github.com/cmem/cmem/llm"
)

// A yes/no question that offers two alternatives is answered with the one
// memory speaks for, not "Yes".
func TestChoiceQuestionIsAnsweredByAnAlternative(t *testing.T) {
	p, err := New(Config{})
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2023, 5, 2, 10, 0, 0, 0, time.UTC)
	res, err := p.Answer(context.Background(), llm.AnswerRequest{
		Subquery: "Does Ines live close to the sea or the mountains?",
		Memory: []llm.MemoryItem{{ID: "t1", Score: 1, ObservedAt: at,
			Value: "Ines: I live right by the sea, I hear the waves from my window every morning."}},
		Coverage: 2,
	})
	if err != nil {
		t.Fatal(err)
	}
	if res.Response != "sea" {
		t.Fatalf("answer %q, want sea", res.Response)
	}
	for q, want := range map[string][2]string{
		"Would Ines rather visit a national park or a theme park?": {"national park", "theme park"},
		"Would Ines enjoy books by C. S. Lewis or Mary Oliver?":    {"C. S. Lewis", "Mary Oliver"},
	} {
		if x, y, ok := alternatives(q); !ok || x != want[0] || y != want[1] {
			t.Errorf("alternatives(%q) = %q, %q, %v; want %q", q, x, y, ok, want)
		}
	}
	for _, q := range []string{"Was the trip a success? Answer yes or no.", "Is Ines happy or not?", "Does Ines like the sea?"} {
		if _, _, ok := alternatives(q); ok {
			t.Errorf("alternatives(%q) offers a choice", q)
		}
	}
}
