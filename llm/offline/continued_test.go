package offline

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cmem/cmem/llm"
)

// continuedAsk answers question from a three-turn chat: first and then
// later by the same speaker, another speaker's turn between them; later is
// said gap after first.
func continuedAsk(t *testing.T, question, first, between, later string, gap time.Duration) llm.AnswerResult {
	t.Helper()
	p, err := New(Config{})
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Date(2024, 3, 4, 18, 0, 0, 0, time.UTC)
	res, err := p.Answer(context.Background(), llm.AnswerRequest{
		Subquery: question,
		Memory: []llm.MemoryItem{
			{ID: "first", Value: first, Score: 1, ObservedAt: t0},
			{ID: "between", Value: between, Score: 0.9, ObservedAt: t0.Add(30 * time.Second)},
			{ID: "later", Value: later, Score: 0.8, ObservedAt: t0.Add(gap)},
		},
		Coverage: 2, // memory is all there is, with no coverage claimed
	})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// Asked where, a turn that names the job but no place is answered by the
// speaker's next turn that says the place (laterTurns in typedNeighbour);
// an hour later it is another conversation. Fails without laterTurns.
func TestLaterTurnSaysThePlace(t *testing.T) {
	q := "Which city is Priya moving to for her new job?"
	first := "Priya: I finally got the new job offer, so I'm moving soon!"
	between := "Tom: No way, congrats! Tell me everything."
	later := "Priya: It's in Lisbon, and I start there in the spring."
	res := continuedAsk(t, q, first, between, later, time.Minute)
	if !strings.Contains(res.Response, "Lisbon") || !slices.Contains(res.Cited, "later") {
		t.Fatalf("answer %q (cited %v), want Lisbon from the later turn", res.Response, res.Cited)
	}
	if res := continuedAsk(t, q, first, between, later, time.Hour); strings.Contains(res.Response, "Lisbon") {
		t.Fatalf("a turn an hour later was read as going on: %q", res.Response)
	}
}

// Asked what someone realized after an event, the turn naming the event
// only restates it; the speaker's next turn says the word asked
// ("realize") and what followed (continuedTurn); an hour later it is
// another conversation. Fails without continuedTurn.
func TestLaterTurnGoesOn(t *testing.T) {
	q := "What did Priya realize after the marathon?"
	first := "Priya: I ran my first marathon last Sunday, it was tough but so rewarding."
	between := "Tom: That's huge, congrats! How are your legs?"
	later := "Priya: Sore! I'm starting to realize that rest days matter as much as training."
	res := continuedAsk(t, q, first, between, later, time.Minute)
	if !strings.Contains(res.Response, "rest days") || !slices.Contains(res.Cited, "later") {
		t.Fatalf("answer %q (cited %v), want what the later turn says", res.Response, res.Cited)
	}
	if res := continuedAsk(t, q, first, between, later, time.Hour); strings.Contains(res.Response, "rest days") {
		t.Fatalf("a turn an hour later was read as going on: %q", res.Response)
	}
}

// Asked what flavor, a turn that only names the pie says little more than
// the question; the other speaker asks about it and the speaker's reply
// says the flavor (askedOn). Without the other speaker's question the
// reply is not read for it. Fails without askedOn.
func TestAskedAboutItTheSpeakerSaysMore(t *testing.T) {
	q := "What flavor of pie did Priya bake for the office party?"
	first := "Priya: Sorry I've been quiet! I baked a pie for the office party."
	later := "Priya: Apple with a cinnamon crumble on top."
	res := continuedAsk(t, q, first, "Tom: Nice! What kind was it?", later, time.Minute)
	if !strings.Contains(res.Response, "cinnamon") || !slices.Contains(res.Cited, "later") {
		t.Fatalf("answer %q (cited %v), want the reply to what was asked", res.Response, res.Cited)
	}
	if res := continuedAsk(t, q, first, "Tom: Nice, sounds lovely.", later, time.Minute); strings.Contains(res.Response, "cinnamon") {
		t.Fatalf("a later turn nobody asked for was read as the answer: %q", res.Response)
	}
}
