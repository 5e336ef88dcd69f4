package offline

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/cmem/cmem/llm"
)

func TestWithoutVocatives(t *testing.T) {
	names := []string{"caroline"}
	for in, want := range map[string]string{
		"Melanie: Caroline, those lessons are great.": "Melanie: , those lessons are great.",
		"Melanie: Thanks, Caroline! I agree.":         "Melanie: Thanks, ! I agree.",
		"Melanie: I met Caroline at the park.":        "Melanie: I met Caroline at the park.",
		"Caroline: I love my guinea pig.":             "Caroline: I love my guinea pig.",
	} {
		if got := withoutVocatives(in, names); got != want {
			t.Errorf("withoutVocatives(%q) = %q, want %q", in, got, want)
		}
	}
}

// Asked what Caroline has, a turn that only addresses her is not about
// her: without the rule Melanie's remark, which the view ranked first,
// answers instead of Caroline's own words.
func TestAddressIsNotAbout(t *testing.T) {
	p, err := New(Config{})
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2023, 7, 12, 16, 33, 0, 0, time.UTC)
	res, err := p.Answer(context.Background(), llm.AnswerRequest{
		Subquery: "What pet does Caroline have?",
		Memory: []llm.MemoryItem{
			{ID: "address", Score: 1, ObservedAt: at, Value: "Melanie: Caroline, a pet is great for joy and comfort, I agree!"},
			{ID: "own", Score: 0.8, ObservedAt: at.Add(time.Hour), Value: "Caroline: And yup, I do - Oscar, my guinea pig. He's been great."},
		},
		Coverage: 2,
	})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(res.Cited, "own") || slices.Contains(res.Cited, "address") {
		t.Fatalf("answer %q cites %v, want Caroline's own turn", res.Response, res.Cited)
	}
}
