package offline

import (
	"testing"
	"time"
)

// Asked how many of a thing, the count answers without the thing's name.
func TestCountWithoutTheCountedNoun(t *testing.T) {
	if got := span("How many kayaks does Priya own?", "Priya: I own 4 kayaks now.", time.Time{}); got != "4" {
		t.Fatalf("got %q, want 4", got)
	}
	if got := span("How many guests came to Priya's launch?", "Priya: Twelve guests came to the launch.", time.Time{}); got != "Twelve" {
		t.Fatalf("got %q, want Twelve", got)
	}
	cands := []rankedSentence{{text: "Priya: I have two kayaks."}, {text: "Priya: Now I have three kayaks!"}}
	if got, _ := largestCount("How many kayaks does Priya have?", cands); got != "three" {
		t.Fatalf("largest count = %q, want three", got)
	}
	// A unit the question does not name stays: it is part of the answer.
	if got := withoutCountedNoun("How many did Priya paddle?", "3 miles"); got != "3 miles" {
		t.Fatalf("got %q, want 3 miles", got)
	}
}
