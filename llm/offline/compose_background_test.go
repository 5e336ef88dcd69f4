package offline

import (
	"strings"
	"testing"

	"github.com/cmem/cmem/llm"
)

// TestBackgroundHedgesOnlyAsANoun fails when "background" as the first
// half of a hyphenated name ("the background-check slip") marks its
// clause as a hedge: the clause that states the current blocker would
// then count for less than the older one it replaced.
func TestBackgroundHedgesOnlyAsANoun(t *testing.T) {
	for text, want := range map[string]bool{
		"Treat the queue pings as background unless a note states the code.": true,
		"Those edits are background.":                                        true,
		"It is now the background-check slip.":                               false,
	} {
		if got := hedgeRE.MatchString(text); got != want {
			t.Errorf("hedgeRE.MatchString(%q) = %v, want %v", text, got, want)
		}
	}
	mem := []llm.MemoryItem{
		composeItem("old", 1, "The mentor sign-off sheet remains the open blocker for the Kestrel move."),
		composeItem("new", 2, "The Kestrel blocker is no longer the mentor sign-off sheet. It is now the background-check slip, and that blocker stays internal."),
	}
	r, ok := composeAnswer("What is the current Kestrel blocker?", mem)
	if !ok || !strings.Contains(r.Response, "background-check slip") {
		t.Fatalf("answer %q (ok %v), want the background-check slip", r.Response, ok)
	}
}
