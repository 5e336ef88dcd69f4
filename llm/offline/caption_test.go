package offline

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/cmem/cmem/llm"
)

func TestCaptionObject(t *testing.T) {
	if got, ok := captionObject("[shared a photo of a painting of a sunset with a palm tree]"); !ok || got != "a painting of a sunset with a palm tree" {
		t.Fatalf("captionObject = %q, %v", got, ok)
	}
	if _, ok := captionObject("I shared a photo of it yesterday."); ok {
		t.Fatal("a sentence about a photo was taken for a caption")
	}
	if !captionAnswers("What painting did Rosalind show?", "[shared a photo of a painting of a lake]") {
		t.Fatal("a caption showing the kind asked does not answer")
	}
	if captionAnswers("What painting did Rosalind show?", "[shared a photo of a dog on a beach]") {
		t.Fatal("a caption showing another kind of thing answers")
	}
	if captionAnswers("What paintings has Rosalind made?", "[shared a photo of a painting of a lake]") {
		t.Fatal("a list question is answered by a caption")
	}
}

// Asked what figure someone shared a photo of, the answer is what the
// image shows, said only in its caption: without the caption lift its
// sentence is halved as an aside and the chat around it answers; without
// the caption answer the bracketed words about sharing are given.
func TestCaptionAnswersWhatWasShown(t *testing.T) {
	p, err := New(Config{})
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2022, 6, 1, 10, 0, 0, 0, time.UTC)
	res, err := p.Answer(context.Background(), llm.AnswerRequest{
		Subquery: "Which toy figure does Tobias share a photo of?",
		Memory: []llm.MemoryItem{
			{ID: "chat", Score: 1, ObservedAt: at, Value: "Tobias: Seeing these toy figures makes me feel invincible!"},
			{ID: "shown", Score: 0.9, ObservedAt: at.Add(time.Minute), Value: "Tobias: Look at my new favourite! [shared a photo of a toy figure of a knight in silver armour]"},
		},
		Coverage: 2,
	})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(res.Response, "knight") || strings.Contains(res.Response, "shared") {
		t.Fatalf("answer %q (cited %v), want what the photo shows", res.Response, res.Cited)
	}
}
