package offline

import (
	"context"
	"testing"
	"time"

	"github.com/cmem/cmem/llm"
)

// namedAsk answers question from the invented chat's turns, said 30 s
// apart from t0, with no tool: memory is all there is.
func namedAsk(t *testing.T, question string, t0 time.Time, turns ...string) string {
	t.Helper()
	p, err := New(Config{})
	if err != nil {
		t.Fatal(err)
	}
	var mem []llm.MemoryItem
	for i, v := range turns {
		mem = append(mem, llm.MemoryItem{ID: string(rune('a' + i)), Value: v, Score: float32(1 - 0.1*float64(i)), ObservedAt: t0.Add(time.Duration(i) * 30 * time.Second)})
	}
	res, err := p.Answer(context.Background(), llm.AnswerRequest{Subquery: question, Memory: mem, Coverage: 2})
	if err != nil {
		t.Fatal(err)
	}
	return res.Response
}

// The sentence naming the place asked about says nothing else; the turn
// goes on with the plan ("there next month"), two sentences on. Fails
// without namedTurns (the answer is then the day the turn was said).
func TestNamedSentenceTurnGoesOn(t *testing.T) {
	t0 := time.Date(2024, 4, 10, 15, 0, 0, 0, time.UTC)
	got := namedAsk(t, "What month is Ravi planning to go to Kestrel Gardens?", t0,
		"Ravi: Thanks for the recipe! By the way, have you been to Kestrel Gardens? My cousin says the cafe is pricey. Planning a trip there next month.",
		"Mina: Not yet, I hear the orchids are lovely in spring.")
	if got != "May 2024" {
		t.Fatalf("answer %q, want May 2024", got)
	}
}

// Asked when someone mentioned a name, the sentence that only names it is
// the answer, said on its day. Fails without the nearest-guess return.
func TestNamedSentenceAloneIsTheGuess(t *testing.T) {
	t0 := time.Date(2023, 7, 23, 18, 46, 0, 0, time.UTC)
	got := namedAsk(t, "When did Lena mention Orvo Talvik?", t0,
		"Lena: It's Orvo Talvik!",
		"Sam: No way, I loved his last film.")
	if got != "23 July 2023" {
		t.Fatalf("answer %q, want 23 July 2023", got)
	}
}
