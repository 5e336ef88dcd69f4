package offline

import (
	"strings"
	"testing"

	"github.com/cmem/cmem/llm"
)

// TestComposeNamesTheThingNotItsCount fails when a clause that only
// counts the thing asked ("with one dependency still open") answers
// "what is the current dependency?" over an older clause naming it.
func TestComposeNamesTheThingNotItsCount(t *testing.T) {
	mem := []llm.MemoryItem{
		composeItem("named", 1, "Current dependency for the Falcon move is the freight elevator permit, and the move date is June 3, 2027."),
		composeItem("counted", 2, "Calendar digest: the Falcon move can be shown as June 3, 2027, with one dependency still open."),
	}
	r, ok := composeAnswer("What are the Falcon move's current date and current dependency?", mem)
	if !ok {
		t.Fatal("no answer")
	}
	if !strings.Contains(r.Response, "freight elevator permit") {
		t.Fatalf("answer %q counts the dependency instead of naming it", r.Response)
	}
}

// TestComposeCountsWhenAskedHowMany fails when a question asking for a
// count loses the clause that gives it.
func TestComposeCountsWhenAskedHowMany(t *testing.T) {
	mem := []llm.MemoryItem{
		composeItem("named", 1, "The freight elevator permit is a Falcon dependency."),
		composeItem("counted", 2, "Calendar digest: the Falcon move has two dependencies still open."),
	}
	r, ok := composeAnswer("How many Falcon dependencies are still open?", mem)
	if !ok || !strings.Contains(r.Response, "two dependencies") {
		t.Fatalf("answer %q (ok %v), want the count", r.Response, ok)
	}
}

func TestOnlyCounts(t *testing.T) {
	own := map[string]bool{"depend": true}
	for text, want := range map[string]bool{
		"with one dependency still open":                   true,
		"two open dependencies remain outstanding":         true,
		"one open dependency: the freight elevator permit": false,
		"one dependency is the freight elevator permit":    false,
		"the only dependency is the elevator permit":       false,
		"bay 07 dependency":                                false,
	} {
		if got := onlyCounts(text, own); got != want {
			t.Errorf("onlyCounts(%q) = %v, want %v", text, got, want)
		}
	}
}
