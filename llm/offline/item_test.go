package offline

import (
	"context"
	"strings"
	"testing"

	"github.com/cmem/cmem/llm"
)

// A list question is answered by the names each turn gives, not by a
// clause of each turn: "Seattle" and "Chicago", not "I finally went to
// Seattle with my family last spring and we all loved it". The listener
// a turn addresses ("Thanks, Tim!") is no item.
func TestListItemsAreNames(t *testing.T) {
	p, err := New(Config{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := p.Answer(context.Background(), llm.AnswerRequest{
		Subquery: "Which cities has John been to?",
		Memory: []llm.MemoryItem{
			{ID: "a", Value: "John: Thanks, Tim! I have been to Seattle with my family, one of the best cities I know.", Score: 1},
			{ID: "b", Value: "John: I have been to Chicago too, a windy city but I loved it.", Score: 0.9},
			{ID: "c", Value: "Tim: Hey John, which cities have you been to lately?", Score: 0.8},
		},
		Coverage: 2, // memory is all there is, with no coverage claimed
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Seattle", "Chicago"} {
		if !strings.Contains(res.Response, want) {
			t.Errorf("answer %q lacks %q", res.Response, want)
		}
	}
	if strings.Contains(res.Response, "Tim") || len(strings.Fields(res.Response)) > 4 {
		t.Errorf("answer %q is not the list of names", res.Response)
	}
}

// An item that names nothing is its clause, cut to listItemWords words.
func TestListItemWithoutNameIsShort(t *testing.T) {
	p, err := New(Config{})
	if err != nil {
		t.Fatal(err)
	}
	c := rankedSentence{text: "Melanie: We went camping by the lake and roasted marshmallows over the fire all night long with the kids."}
	q := "What activities has Melanie done with her family?"
	got := p.listItem(p.cfg.Embedder.(aligner), nil, q, "Melanie Caroline", c)
	if n := len(strings.Fields(got)); n == 0 || n > listItemWords {
		t.Fatalf("listItem = %q, want at most %d words", got, listItemWords)
	}
}

// An unnamed item is cut after listItemWords words, but never before its
// first number: the value is what the question asks for.
func TestListItemKeepsItsNumber(t *testing.T) {
	p, err := New(Config{})
	if err != nil {
		t.Fatal(err)
	}
	c := rankedSentence{text: "The playoff appearances of Stopousur Migourel is 94597."}
	got := p.listItem(p.cfg.Embedder.(aligner), nil, "What playoff entries does Stopousur Migourel have?", "", c)
	if !strings.Contains(got, "94597") {
		t.Fatalf("listItem = %q, want the value 94597 kept", got)
	}
}
