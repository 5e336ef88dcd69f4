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

func TestComposeKeepsAListAfterALeadIn(t *testing.T) {
	mem := composeMem(
		"I will upload the card after the visit.",
		"Medication card recap: sertraline 50 mg daily; hydroxyzine 25 mg up to twice daily as needed; stop alprazolam.",
	)
	r, ok := composeAnswer("What is the current medication card now?", mem)
	if !ok || !strings.Contains(r.Response, "hydroxyzine 25 mg") || !strings.Contains(r.Response, "stop alprazolam") {
		t.Fatalf("answer %q (ok %v), want the whole list after the lead-in", r.Response, ok)
	}
}

func TestComposeGathersCountedItems(t *testing.T) {
	mem := composeMem(
		"Prep reminder one: arrive at 8:50 AM for Tuesday CT.",
		"Prep reminder two: arrive at 10:40 AM for Friday cystoscopy.",
		"Prep reminder three: keep ibuprofen stopped until after the Friday cystoscopy.",
		"The blood looked bright red yesterday morning.",
		"Ride times and check-in instructions only.",
		"The new direct mobile number is 415-555-0196.",
	)
	r, ok := composeAnswer("What are the three prep reminders right now?", mem)
	for _, want := range []string{"8:50 AM", "10:40 AM", "keep ibuprofen stopped"} {
		if !ok || !strings.Contains(r.Response, want) {
			t.Fatalf("answer %q (ok %v) lacks %q", r.Response, ok, want)
		}
	}
	if strings.Contains(r.Response, "blood") {
		t.Fatalf("answer %q holds what was not asked", r.Response)
	}
}

func TestComposeADenialIsNoEcho(t *testing.T) {
	mem := composeMem(
		"The only major blocker still open is the SSO failover runbook approval.",
		"The current target date is August 6, 2026. At this point, there are no major Redwood blockers still open.",
	)
	r, ok := composeAnswer("What is Redwood's current target date and are any major blockers open?", mem)
	if !ok || !strings.Contains(r.Response, "August 6, 2026") || !strings.Contains(r.Response, "no major Redwood blockers") {
		t.Fatalf("answer %q (ok %v), want the date and the denial", r.Response, ok)
	}
}

func TestComposeGivesTheListFromItsClause(t *testing.T) {
	mem := composeMem(
		"Summit targets August 1, 2026 for launch; approved budget is 216,000 USD; discount is 8%; safe wording is 'the airline operations pilot'; vendor is ForgeLock with a fixed twelve-month term plus mutual written renewal; active token sm_stg_6P3T-H8LX-4J9C and label bridge-88 replace the retired pair for the rollout team, and there are no major blockers open.",
	)
	r, ok := composeAnswer("What is Summit's current target date, approved budget, and whether any major blockers remain open?", mem)
	for _, want := range []string{"August 1, 2026", "216,000 USD", "no major blockers open"} {
		if !ok || !strings.Contains(r.Response, want) {
			t.Fatalf("answer %q (ok %v) lacks %q", r.Response, ok, want)
		}
	}
}

func TestComposeARepeatedValueStillAnswersItsPart(t *testing.T) {
	mem := composeMem(
		"Current finance note: 3,710 USD is the active private support amount for Juniper.",
		"Please keep my current amount 3,710 USD, safe label single-room accommodation review, and family-release scope move-in timing only inside the private thread.",
	)
	r, ok := composeAnswer("As of now, what are the current active support amount, safe label, and current family-release scope for Juniper?", mem)
	if !ok || !strings.Contains(r.Response, "single-room accommodation review") {
		t.Fatalf("answer %q (ok %v), want the label beside the repeated amount", r.Response, ok)
	}
}

func TestComposeAListWithAPastValueIsCut(t *testing.T) {
	mem := composeMem(
		"Deletion request acknowledged: remove the earlier private suite Annex 730 from active memory; the current active suite remains Annex 731.",
	)
	r, ok := composeAnswer("What is the current active suite?", mem)
	if !ok || !strings.Contains(r.Response, "731") || strings.Contains(r.Response, "730") {
		t.Fatalf("answer %q (ok %v), want the current suite alone", r.Response, ok)
	}
}
