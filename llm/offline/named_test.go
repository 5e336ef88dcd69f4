package offline

import (
	"testing"
	"time"
)

// A what question about a name is answered with the name given, not the
// speaker's and not the sentence: "his name is Kyle" before any other
// capitalised word, and a turn opening "Long time no talk" names no one.
func TestNameSpan(t *testing.T) {
	for _, c := range []struct{ q, s, want string }{
		{"What is the name of John's one-year-old child?", "John: Thanks, Maria! Our one-year-old is so cute, his name is Kyle!", "Kyle"},
		{"What is the name of Maria's puppy?", "Maria: Long time no talk! Guess what - I got a puppy! Her name's Coco and she's adorable.", "Coco"},
		{"What was the name of the pet John said goodbye to?", "John: The toughest thing was saying goodbye to Max.", "Max"},
	} {
		if got := span(c.q, c.s, time.Time{}); got != c.want {
			t.Errorf("span(%q) = %q, want %q", c.q, got, c.want)
		}
	}
	if !asksNames("What are the names of James's dogs?") || !asksList("What are Melanie's pets' names?") {
		t.Error("a question asking names is not taken for a list")
	}
	if asksName("What did John name as his goal?") {
		t.Error("a question using name as a verb taken for one asking a name")
	}
}

// When the sentence that aligns best holds no span of the kind asked, the
// next sentence of the same turn that does answers.
func TestTypedNeighbour(t *testing.T) {
	cands := []rankedSentence{
		{text: "John: The toughest thing is that we had to say goodbye to Max.", id: "a", pos: 0},
		{text: "John: He was such an important part of our family for 10 years.", id: "a", pos: 1},
		{text: "Maria: Last night we watched 3 films.", id: "b", pos: 2},
	}
	q := "How long was Max a part of John's family?"
	if got := answeringNeighbour(q, cands[0], cands); got.pos != 1 {
		t.Fatalf("answeringNeighbour = %q, want the next sentence", got.text)
	}
	if got := span(q, cands[1].text, time.Time{}); got != "10 years" {
		t.Fatalf("span = %q, want 10 years", got)
	}
	// Another item's sentence is no neighbour.
	if got := answeringNeighbour(q, cands[1], cands); got.pos != 1 {
		t.Fatalf("a sentence holding the span was replaced by %q", got.text)
	}
	if got := answeringNeighbour("What is the name of Maria's dog?", cands[2], cands); got.pos != 2 {
		t.Fatalf("a sentence of another item taken as neighbour: %q", got.text)
	}
}
