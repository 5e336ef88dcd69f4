package offline_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cmem/cmem/llm"
	"github.com/cmem/cmem/llm/offline"
)

// chatTurns is a made-up chat between Rowan and Ilse, one memory item a
// turn, each observed on its day.
func chatTurns() []llm.MemoryItem {
	at := time.Date(2024, 3, 9, 15, 0, 0, 0, time.UTC)
	turn := func(id, text string, score float32) llm.MemoryItem {
		return llm.MemoryItem{ID: id, Key: text, Value: text, Score: score, ObservedAt: at}
	}
	return []llm.MemoryItem{
		// The view ranks a greeting first: it names the friend and the
		// day, and says nothing.
		turn("t1", "Rowan (3:00 pm on 9 March, 2024): Great to see you, Ilse! How was your week with your friend?", 0.9),
		turn("t2", "Rowan (3:00 pm on 9 March, 2024): I went to a puppet show with a friend. The marionettes were stunning.", 0.7),
		turn("t3", "Ilse (3:00 pm on 9 March, 2024): I walk the dogs twice a day, rain or shine.", 0.6),
		turn("t4", "Ilse (3:00 pm on 9 March, 2024): My favourite novel is \"The Glass Orchard\" - it's been on my shelf for years!", 0.5),
		turn("t5", "Rowan (3:00 pm on 9 March, 2024): Finishing the marathon was totally surreal and it made me cry.", 0.4),
	}
}

// With memory only, the sentence that says the question's rare words
// answers, not the view's first turn that only greets (a short turn
// aligns with anything); it is cited.
func TestMemoryOnlyAnswerSkipsGreetings(t *testing.T) {
	p := newOffline(t, offline.Config{})
	res, err := p.Answer(context.Background(), llm.AnswerRequest{Subquery: "Which show did Rowan go to with a friend?", Memory: chatTurns()})
	if err != nil {
		t.Fatal(err)
	}
	if !containsFold(res.Response, "puppet show") {
		t.Errorf("answer %q, want the puppet show", res.Response)
	}
	if !slices.Contains(res.Cited, "t2") || slices.Contains(res.Cited, "t1") {
		t.Errorf("cited %v, want t2 and not the greeting t1", res.Cited)
	}
}

// How often is answered with the frequency said, and a title asked for
// with the title in quotes, not the comment after it.
func TestMemoryOnlyAnswerSpans(t *testing.T) {
	p := newOffline(t, offline.Config{})
	for q, want := range map[string]string{
		"How often does Ilse walk the dogs?":               "twice a day",
		"What is Ilse's favourite novel?":                  "The Glass Orchard",
		"How did Rowan feel about finishing the marathon?": "totally surreal",
	} {
		res, err := p.Answer(context.Background(), llm.AnswerRequest{Subquery: q, Memory: chatTurns()})
		if err != nil {
			t.Fatal(err)
		}
		if res.Response != want {
			t.Errorf("%q: answer %q, want %q", q, res.Response, want)
		}
		if len(res.Cited) == 0 {
			t.Errorf("%q: nothing cited", q)
		}
	}
}

func containsFold(s, sub string) bool {
	return strings.Contains(strings.ToLower(s), strings.ToLower(sub))
}
