package offline

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/cmem/cmem/llm"
)

// Asked what someone shared a photo of, the turn that talks about it
// answers with what its image shows, not with the words beside it
// (shownInTurn), and only what it shows (clause keeps the caption's
// object). Fails with either removed: the answer is "Baking bread or
// reading …", or a piece of the caption less the words asked.
func TestPhotoSharedAnswersWithWhatItShows(t *testing.T) {
	p, err := New(Config{})
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Date(2024, 2, 3, 10, 0, 0, 0, time.UTC)
	res, err := p.Answer(context.Background(), llm.AnswerRequest{
		Subquery: "What did Tomas share a photo of when talking about baking bread on weekends?",
		Memory: []llm.MemoryItem{
			{ID: "turn", Value: "Tomas: Mostly staying in on weekends. Baking bread or reading helps me relax. [shared a photo of a windowsill lined with sourdough bread, still warm from the oven]", Score: 1, ObservedAt: t0},
			{ID: "other", Value: "Rina: Sounds cozy! I spent mine repainting the fence.", Score: 0.5, ObservedAt: t0.Add(time.Minute)},
		},
		Coverage: 2, // memory is all there is
	})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(res.Response, "windowsill lined with sourdough bread") || strings.Contains(res.Response, "shared") {
		t.Fatalf("answer %q, want what the photo shows", res.Response)
	}
}

// Only a question asking what an image shows is answered by its caption.
func TestAsksWhatShown(t *testing.T) {
	for q, want := range map[string]bool{
		"What did Tomas share a photo of when talking about relaxing?":  true,
		"What did Rina take a picture of near the harbour last spring?": true,
		"What did Tomas bake on the weekend?":                           false,
		"Where did Rina take the picture of the harbour?":               false,
	} {
		if got := asksWhatShown(q); got != want {
			t.Errorf("asksWhatShown(%q) = %v, want %v", q, got, want)
		}
	}
}
