package offline

import (
	"testing"
	"time"
)

// Asked when, a sentence that only names the event is answered by its
// neighbour that says when it happened ("last Tuesday"), not by the day
// the turn was said: without saysWhen in typedNeighbour, every sentence
// holds a date (the day it was observed) and the neighbour is never read.
func TestWhenNeighbourSaysTheDay(t *testing.T) {
	at := time.Date(2023, 7, 20, 18, 0, 0, 0, time.UTC) // a Thursday
	cands := []rankedSentence{
		{text: "Lea: I joined a neighbourhood cycling club, so exciting.", pos: 0, id: "t1", at: at},
		{text: "Lea: The first ride was last Tuesday.", pos: 1, id: "t1", at: at},
	}
	q := "When did Lea join the cycling club?"
	got := typedNeighbour(kindWhen, q, cands[0], cands)
	if got.pos != 1 {
		t.Fatalf("typedNeighbour = %q, want the sentence that says when", got.text)
	}
	if s := span(q, got.text, got.at); s != "the Tuesday before 20 July 2023" {
		t.Fatalf("span = %q", s)
	}
}
