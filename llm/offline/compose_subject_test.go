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
