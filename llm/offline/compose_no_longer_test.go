package offline

import (
	"strings"
	"testing"

	"github.com/cmem/cmem/llm"
)

// TestComposeGivesTheBlockerThatReplacedARetiredOne fails when a state
// retired in words ("is no longer the supervisor sign-off sheet") still
// answers: the older note naming it, or the retiring note itself, is
// given instead of the state that replaced it.
func TestComposeGivesTheBlockerThatReplacedARetiredOne(t *testing.T) {
	mem := []llm.MemoryItem{
		composeItem("old", 1, "The supervisor sign-off sheet remains the open blocker for the Kestrel move."),
		composeItem("new", 2, "The Kestrel blocker is no longer the supervisor sign-off sheet. It is now the parking permit form, and that blocker stays internal."),
	}
	r, ok := composeAnswer("What is the current Kestrel blocker?", mem)
	if !ok {
		t.Fatal("no answer")
	}
	if !strings.Contains(r.Response, "parking permit form") || strings.Contains(r.Response, "sign-off sheet") {
		t.Fatalf("answer %q, want the parking permit form and not the retired sign-off sheet", r.Response)
	}
}
