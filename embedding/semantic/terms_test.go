package semantic_test

import (
	"testing"

	"github.com/cmem/cmem/embedding"
	"github.com/cmem/cmem/embedding/semantic"
)

func TestTermsMatchWordByWord(t *testing.T) {
	e := semantic.Must()
	if got := len(e.Terms("Who took the dogs to the park?")); got != 3 { // took, dogs, park
		t.Fatalf("Terms keeps %d words, want the 3 content words without the question word", got)
	}
	q := e.Terms("How many children does Melanie have?")
	answer := embedding.SoftMatch(q, e.Terms("Melanie: my kids loved the beach trip"))
	chat := embedding.SoftMatch(q, e.Terms("Melanie: that sounds lovely, congrats!"))
	if answer <= chat {
		t.Fatalf("kids must match children better than chit-chat does: %.3f vs %.3f", answer, chat)
	}
	// A word outside the vocabulary is its own vector: it matches itself,
	// not another unknown word.
	same := embedding.SoftMatch(e.Terms("Zorblax"), e.Terms("met Zorblax"))
	other := embedding.SoftMatch(e.Terms("Zorblax"), e.Terms("met Quexil"))
	if same < 0.99 || other > 0.5 {
		t.Fatalf("an unknown word matches itself %.3f and another %.3f", same, other)
	}
}
