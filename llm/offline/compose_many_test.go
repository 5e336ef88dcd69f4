package offline

import (
	"slices"
	"strings"
	"testing"

	"github.com/cmem/cmem/llm"
)

func TestComposeGivesTheWholeList(t *testing.T) {
	mem := composeMem(
		"Okay, that works for me.",
		"Current scheduled visits: Friday March 14 at 10:00 AM primary care; Friday March 28 at 9:00 AM hematology.",
		"Those two visits work for me.",
	)
	r, ok := composeAnswer("What two follow-up visits are currently booked?", mem)
	for _, want := range []string{"March 14 at 10:00 AM", "March 28 at 9:00 AM"} {
		if !ok || !strings.Contains(r.Response, want) {
			t.Fatalf("answer %q (ok %v) lacks the item %q", r.Response, ok, want)
		}
	}
}

func TestComposeHoldsAListWithOneQuestionWord(t *testing.T) {
	mem := composeMem(
		"I delivered five days ago and triage asked me to come back.",
		"Your current active list still shows nifedipine ER 30 mg nightly, prenatal vitamin daily, and ferrous sulfate every other day.",
	)
	r, ok := composeAnswer("What are the three home items still active right now?", mem)
	if !ok || !strings.Contains(r.Response, "ferrous sulfate every other day") {
		t.Fatalf("answer %q (ok %v), want the list that holds one of the question's words", r.Response, ok)
	}
}

func TestComposeAnEchoAnswersWithWhatItPointsTo(t *testing.T) {
	mem := composeMem(
		"A later change pushes Harbor from July 23, 2026 to July 31, 2026. That is now the current target date.",
		"Harbor budget is 212,000 USD.",
	)
	r, ok := composeAnswer("What are Harbor's current target date and budget?", mem)
	if !ok || !strings.Contains(r.Response, "July 31, 2026") || !strings.Contains(r.Response, "212,000 USD") {
		t.Fatalf("answer %q (ok %v), want the date the echo points back to", r.Response, ok)
	}
	if strings.Contains(r.Response, "That is now") {
		t.Fatalf("answer %q gives the echo itself", r.Response)
	}
}

func TestFitSharesGivesShortPartsWordsToLongOnes(t *testing.T) {
	got := fitShares([]int{4, 30, 5}, 40)
	if !slices.Equal(got, []int{4, 30, 5}) {
		t.Fatalf("shares %v, want every text whole when they fit", got)
	}
	got = fitShares([]int{4, 50, 50}, 40)
	if got[0] != 4 || got[1]+got[2] > 36 || got[1] < 17 {
		t.Fatalf("shares %v, want the short text whole and the rest split", got)
	}
}

func TestAsksMany(t *testing.T) {
	for q, want := range map[string]bool{
		"What are the three home items":     true,
		"which blockers remain open":        true,
		"what is the current diagnosis":     false,
		"what access does Leo have":         false,
		"what is the current callback plan": false,
	} {
		if asksMany(q) != want {
			t.Errorf("asksMany(%q) = %v, want %v", q, !want, want)
		}
	}
}

// composeMem returns the values as memory items, one hour apart, oldest
// first.
func composeMem(values ...string) []llm.MemoryItem {
	out := make([]llm.MemoryItem, len(values))
	for i, v := range values {
		out[i] = composeItem(string(rune('a'+i)), i+1, v)
	}
	return out
}

func TestComposeDoesNotRepeatAGivenValue(t *testing.T) {
	mem := composeMem(
		"Funding recap: 2,150 USD is the approved current bridge-support amount for Cedar.",
		"Cedar recap: May 8, 2026 hearing date, 2,150 USD current bridge support, and blocker 'committee chair signature' still open.",
	)
	r, ok := composeAnswer("What are Cedar's current hearing date, current bridge-support amount, and current blocker?", mem)
	if !ok || strings.Count(r.Response, "2,150 USD") != 1 || !strings.Contains(r.Response, "committee chair signature") {
		t.Fatalf("answer %q (ok %v), want each value once and the recap whole", r.Response, ok)
	}
}
