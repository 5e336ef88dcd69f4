package offline

import (
	"strings"
	"testing"

	"github.com/cmem/cmem/llm"
)

// Notes that mostly speak of a budget still answer the budget part: a
// word most items hold is the record's name only when the question names
// it.
func TestComposeAWordMostNotesHoldStillAnswers(t *testing.T) {
	mem := []llm.MemoryItem{
		composeItem("a", 1, "The Orion budget review moved to Thursday."),
		composeItem("b", 2, "Finance keeps the budget spreadsheet for Orion."),
		composeItem("c", 3, "The budget owner for Orion is the finance lead."),
		composeItem("d", 4, "Current approved Orion budget remains 222,000 USD."),
		composeItem("e", 5, "Orion target remains July 31, 2026."),
	}
	r, ok := composeAnswer("Give me the current Orion target date and budget.", mem)
	if !ok || !strings.Contains(r.Response, "222,000 USD") {
		t.Fatalf("answer %q (ok %v) lacks the approved budget", r.Response, ok)
	}
}

func TestNamedWords(t *testing.T) {
	got := namedWords("Give me the current Lighthouse budget and Maria's dose")
	if !got["lighth"] || !got["maria"] || got["give"] || got["budget"] {
		t.Fatalf("namedWords = %v", got)
	}
}

// A clause holding another part's own words states that part: "the
// remaining blockers are … a last customer walkthrough" does not answer
// "what customer wording" over the reminder that gives the wording.
func TestComposeAnotherPartsWordsGainNothing(t *testing.T) {
	mem := []llm.MemoryItem{
		composeItem("w", 1, "Documentation reminder: broad updates should use the insurance pilot instead of the customer's name for Orion."),
		composeItem("b", 2, "Readiness note for Orion: the remaining blockers are down to final runbook sign-off and a last customer masking walkthrough."),
		composeItem("n", 3, "There are no remaining operational blockers now."),
		composeItem("x", 4, "Orion standup moved to the small room."),
	}
	r, ok := composeAnswer("What blockers remain for Orion now, and what broad customer wording can I safely use?", mem)
	if !ok || !strings.Contains(r.Response, "the insurance pilot") {
		t.Fatalf("answer %q (ok %v) lacks the wording", r.Response, ok)
	}
}
