package offline

import (
	"slices"
	"strings"
	"testing"

	"github.com/cmem/cmem/llm"
)

// TestComposedDateGetsItsYear fails when a date a note gives without its
// year stays bare although another note the reader was shown gives the
// same day in full, when the note the year came from is not cited, or
// when a day memory gives two years gets either.
func TestComposedDateGetsItsYear(t *testing.T) {
	mem := []llm.MemoryItem{
		composeItem("recap", 2, "Current Lighthouse state: target date July 10, budget 236,000 USD."),
		composeItem("move", 1, "Legal review slipped, so Lighthouse moves to July 10, 2026."),
	}
	got, ok := composeAnswer("What is Lighthouse's current target date?", mem)
	if !ok || !strings.Contains(got.Response, "July 10, 2026") {
		t.Fatalf("answer %q, want the date with its year", got.Response)
	}
	if !slices.Contains(got.Cited, "move") {
		t.Fatalf("cited %v: the note the year came from is not cited", got.Cited)
	}
	full := fullDates(clausesOf([]itemAt{{id: "a", value: "Due May 3, 2026."}, {id: "b", value: "Due May 3, 2027."}}))
	if text, _ := withYears("due May 3", full); text != "due May 3" {
		t.Fatalf("a day memory gives two years became %q", text)
	}
}
