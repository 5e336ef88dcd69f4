package offline

import (
	"strings"
	"testing"
	"time"

	"github.com/cmem/cmem/llm"
)

func TestFactsAnswerGivesTheMatchingFactsNewestFirst(t *testing.T) {
	now := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	mem := []llm.MemoryItem{
		{ID: "old", Value: "Maple budget is 262,000 USD and the discount cap is 11%.", ObservedAt: now},
		{ID: "new", Value: "Current Maple status: budget 221,000 USD, maximum discount 9%, doxylamine 12.5 mg nightly.", ObservedAt: now.Add(time.Hour)},
		{ID: "noise", Value: "Team lunch moved to Friday.", ObservedAt: now.Add(2 * time.Hour)},
	}
	r, ok := factsAnswer("What are Maple's current budget and maximum discount?", mem)
	if !ok {
		t.Fatal("no answer")
	}
	if !strings.HasPrefix(r.Response, "Current Maple status: budget 221,000 USD, maximum discount 9%, doxylamine 12.5 mg nightly.") {
		t.Fatalf("newest matching fact first, whole: %q", r.Response)
	}
	if strings.Contains(r.Response, "lunch") || len(r.Cited) == 0 || r.Cited[0] != "new" {
		t.Fatalf("answer %q cited %v", r.Response, r.Cited)
	}
	if _, ok := factsAnswer("What is the weather?", mem); ok {
		t.Fatal("nothing matches: no facts answer")
	}
}
