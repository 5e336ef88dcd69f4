package offline

import (
	"context"
	"testing"
	"time"

	"github.com/cmem/cmem/llm"
)

// Asked how someone described a thing, the turn's judgement of that thing
// answers ("the lake was breathtaking"), not the first word of feeling of
// the turn, said of the whole trip. Fails without feltAbout.
func TestFeelingSaidOfTheThingAsked(t *testing.T) {
	p, err := New(Config{})
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Date(2024, 5, 2, 19, 0, 0, 0, time.UTC)
	res, err := p.Answer(context.Background(), llm.AnswerRequest{
		Subquery: "How did Ines describe the lake on her hiking trip through the northern mountains?",
		Memory: []llm.MemoryItem{
			{ID: "t1", Value: "Ines: My brother and I went on a hiking trip through the northern mountains, and it was fantastic! The lake was breathtaking, and we camped by the shore.", Score: 1, ObservedAt: t0},
			{ID: "t2", Value: "Omar: Sounds like a great time, I need a break like that too.", Score: 0.8, ObservedAt: t0.Add(30 * time.Second)},
		},
		Coverage: 2,
	})
	if err != nil {
		t.Fatal(err)
	}
	if res.Response != "breathtaking" {
		t.Fatalf("answer %q, want the word said of the lake", res.Response)
	}
}
