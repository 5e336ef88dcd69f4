package offline

import (
	"slices"
	"strings"
	"testing"
)

func TestListedItems(t *testing.T) {
	got := listedItems("date May 19, 2026, room 12, amount 2,150 USD, and blocker the security review")
	want := []string{"date May 19, 2026", "room 12", "amount 2,150 USD", "blocker the security review"}
	if !slices.Equal(got, want) {
		t.Fatalf("listedItems = %q, want %q", got, want)
	}
	got = listedItems("the launch target moves to March 10, 2027 and the blocker is now the security review")
	if len(got) != 2 || got[1] != "the blocker is now the security review" {
		t.Fatalf("listedItems = %q: a new statement after 'and the' starts an item", got)
	}
}

// A recap question of several parts is answered item by item: the
// blocker said after a date in one clause is given, not cut off at the
// budget after the date it shares the clause with.
func TestComposeGivesEachPartItsItem(t *testing.T) {
	mem := composeMem(
		"Kickoff note: the internal contract wording is 'restricted vendor review pending legal memo', with an initial launch target of March 3, 2027.",
		"Reminder: outside the team the work may only be called the billing migration; the internal wording stays restricted.",
		"Update: the Falcon launch target moves to March 10, 2027 and the blocker is now the security review.",
		"Finance update: the approved Falcon budget is now 84,000 USD, separate from the public estimate of 80,000 USD.",
		"Status note: the team remains on the billing migration with a launch target of March 10, 2027 and nothing new to add.",
	)
	r, ok := composeAnswer("What are Falcon's current launch target, safe wording, approved budget, and blocker?", mem)
	for _, want := range []string{"March 10, 2027", "84,000 USD", "security review"} {
		if !ok || !strings.Contains(r.Response, want) {
			t.Fatalf("answer %q (ok %v) lacks %q", r.Response, ok, want)
		}
	}
}

// A request that states the values it asks to keep is the speaker's own
// statement of them, newer than the note it restates.
func TestKeepRequestStatesItsValues(t *testing.T) {
	mem := composeMem(
		"Finance note: the approved support amount for the file is 3,710 USD.",
		"Please keep my current support amount 3,690 USD, room 12 and blocker the housing form inside the private file.",
	)
	r, ok := composeAnswer("What are the current room, support amount, and blocker?", mem)
	if !ok || !strings.Contains(r.Response, "3,690 USD") || strings.Contains(r.Response, "3,710") {
		t.Fatalf("answer %q (ok %v), want the amount the newer request states", r.Response, ok)
	}
}

// A current clause that barely touches the part does not push out a
// stale-marked one that states it.
func TestWeakCurrentClauseLeavesTheStatedValue(t *testing.T) {
	mem := composeMem(
		"Finance: 3,470 USD is still the provisional support amount for the review.",
		"Safe broad summaries are fine for support staff.",
	)
	r, ok := composeAnswer("What are the current date, safe wording, support amount, and blocker?", mem)
	if !ok || !strings.Contains(r.Response, "3,470 USD") {
		t.Fatalf("answer %q (ok %v), want the stated amount", r.Response, ok)
	}
}

// A later restatement that names the asked thing by its head ("current
// amount") with a value of the same kind is its newer value, though the
// first statement held more of the question's words.
func TestNewerValueOfTheSameThing(t *testing.T) {
	mem := composeMem(
		"Current finance note: 3,710 USD is the active private support amount for the residence file.",
		"Late recap: current suite 731, current badge JRX-7810, current amount 3,690 USD, blocker quiet-hours addendum.",
	)
	r, ok := composeAnswer("What are the current active suite, active badge, current support amount, and blocker?", mem)
	if !ok || !strings.Contains(r.Response, "3,690 USD") || strings.Contains(r.Response, "3,710") {
		t.Fatalf("answer %q (ok %v), want the newer amount", r.Response, ok)
	}
}

// "Safe label" asks for the safe wording.
func TestLabelReadsAsWording(t *testing.T) {
	mem := composeMem(
		"Safe arrival note: the review meets in hall 4 on Friday.",
		"Outside the team, the safe wording is 'billing migration' only.",
	)
	r, ok := composeAnswer("What is the safe label for the review?", mem)
	if !ok || !strings.Contains(r.Response, "billing migration") {
		t.Fatalf("answer %q (ok %v), want the safe wording", r.Response, ok)
	}
}

// A hedge covers every item of its clause: the list of what "none of that
// changes" names states none of it.
func TestHedgeCoversItsItems(t *testing.T) {
	mem := composeMem(
		"Blocker note: the budget office confirmation is still pending for the placement.",
		"Calendar edits moved around this hour, but none of that changes the latest placement facts on date, site, amount, or blocker state.",
	)
	r, ok := composeAnswer("What are the placement's current date, site, amount, and blocker?", mem)
	if !ok || !strings.Contains(r.Response, "budget office confirmation") {
		t.Fatalf("answer %q (ok %v), want the stated blocker", r.Response, ok)
	}
}

// A credential, a code and a token are one thing to a reader.
func TestCredentialReadsAsCode(t *testing.T) {
	mem := composeMem(
		"Current access: the active code is ax_TMP_4471.",
		"The lab visit is on Friday.",
	)
	r, ok := composeAnswer("What is the current credential?", mem)
	if !ok || !strings.Contains(r.Response, "ax_TMP_4471") {
		t.Fatalf("answer %q (ok %v), want the active code", r.Response, ok)
	}
	r, ok = composeAnswer("Which token is in use now?", mem)
	if !ok || !strings.Contains(r.Response, "ax_TMP_4471") {
		t.Fatalf("answer %q (ok %v), want the active code", r.Response, ok)
	}
}
