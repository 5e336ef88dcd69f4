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
