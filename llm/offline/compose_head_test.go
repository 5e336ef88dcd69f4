package offline

import (
	"strings"
	"testing"

	"github.com/cmem/cmem/llm"
)

// The thing asked outweighs the words that only say which one: "the
// diagnosis for the Orion incident" is answered by the diagnosis, not by
// a budget note that mentions the incident.
func TestComposeTheAskedThingOutweighsItsModifier(t *testing.T) {
	mem := []llm.MemoryItem{
		composeItem("diag", 1, "The leading diagnosis remains partial credential propagation on the Orion queue workers."),
		composeItem("budget", 2, "Approved current budget for Orion is now 211,000 USD after the incident response adjustments."),
		composeItem("access", 3, "Approved for the contractor: logs-only Orion staging debugging access through Friday 18:00."),
		composeItem("x", 4, "Orion standup moved to the small room."),
		composeItem("y", 5, "Orion vendor onboarding is complete."),
	}
	r, ok := composeAnswer("What is the current diagnosis for the Orion incident, and what access scope was given to the debugging contractor?", mem)
	if !ok || !strings.Contains(r.Response, "partial credential propagation") {
		t.Fatalf("answer %q (ok %v) lacks the diagnosis", r.Response, ok)
	}
	if strings.Contains(r.Response, "211,000") {
		t.Fatalf("answer %q gives the budget for the diagnosis", r.Response)
	}
}

func TestModifierWords(t *testing.T) {
	got := modifierWords("What is the current diagnosis for the Monsoon incident")
	if !got["incide"] || !got["monsoo"] || got["diagno"] {
		t.Fatalf("modifierWords = %v", got)
	}
	if len(modifierWords("what blockers remain")) != 0 {
		t.Fatal("a part without a preposition has a modifier")
	}
}

// A reader's word for the thing meets the note's: "diagnosis" is the
// note's "current suspicion", "description" its "wording".
func TestComposeMatchesTheWordsReadersUse(t *testing.T) {
	mem := []llm.MemoryItem{
		composeItem("s", 1, "Current suspicion is partial credential propagation on the Orion queue workers."),
		composeItem("w", 2, "Orion broad wording stays 'the logistics pilot' in outside updates."),
		composeItem("x", 3, "The Orion team lunch moved to Thursday."),
		composeItem("y", 4, "Orion vendor onboarding is complete."),
	}
	r, ok := composeAnswer("What is the Orion incident diagnosis, and what broad description is safe?", mem)
	if !ok || !strings.Contains(r.Response, "partial credential propagation") || !strings.Contains(r.Response, "the logistics pilot") {
		t.Fatalf("answer %q (ok %v) lacks the suspicion or the wording", r.Response, ok)
	}
}

// A note saying it changes nothing states no value: "nothing in this
// message changes the current contract structure" is no answer to "what
// contract structure is in force".
func TestComposeANoteThatChangesNothingIsNoAnswer(t *testing.T) {
	mem := []llm.MemoryItem{
		composeItem("c", 1, "Legal: the Orion contract structure is a fixed twelve-month term with mutual written renewal."),
		composeItem("n", 2, "Again for clean recall, nothing in this message changes the approved Orion budget, discount, selected vendor, or current contract structure."),
		composeItem("x", 3, "The Orion team lunch moved to Thursday."),
		composeItem("y", 4, "Orion vendor onboarding is complete."),
	}
	r, ok := composeAnswer("What contract structure is currently in force for Orion?", mem)
	if !ok || !strings.Contains(r.Response, "fixed twelve-month term") {
		t.Fatalf("answer %q (ok %v) lacks the contract structure", r.Response, ok)
	}
}
