package app

import (
	"regexp"
	"strings"
	"testing"

	"github.com/cmem/cmem/domain"
)

func TestStatementsDropQuestionsAndRequests(t *testing.T) {
	cases := []struct{ in, want string }{
		{"The ride is at 7:25. Is that right?", "The ride is at 7:25."},
		{"I only need the ride time. Is Wednesday March 19 at 1:30 PM the time?", ""},
		{"Since I am driving her, tell me the site name and the Monday call time too.", ""},
		{"Compliance asked me to verify the deleted note. Was it Willow House desk 628-555-0191?", "Compliance asked me to verify the deleted note."},
		{"Can you complete the deleted number for me.", ""},
		{"I only need tomorrow's drop-off time and whether this is the STI injection.", ""},
		{"Billing only needs to know whether this is for a clot diagnosis.", ""},
		{"Yes. The ride is at 7:25.", "The ride is at 7:25."},
		{"Current label for Keystone is rollout-bridge-64. This replaces the deleted one.", "Current label for Keystone is rollout-bridge-64. This replaces the deleted one."},
	}
	for _, c := range cases {
		if got := statements(c.in); got != c.want {
			t.Errorf("statements(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestAnswerNeverRestatesWhatTheQuestionProposes(t *testing.T) {
	q := "The current label is queue-bridge-90. Which deleted label did it replace?"
	vals := proposed(q)
	if len(vals) != 1 || vals[0] != "queue-bridge-90" {
		t.Fatalf("proposed = %q", vals)
	}
	got := withoutProposed("Current label for Monsoon is queue-bridge-90. Final validation has cleared.", vals)
	if strings.Contains(got, "queue-bridge-90") || got != "Final validation has cleared." {
		t.Fatalf("withoutProposed = %q", got)
	}
	if p := proposed("Give Palisade Panel's date, plus Palisade Partners' amount?"); len(p) != 0 {
		t.Fatalf("possessives are no quotes: %q", p)
	}
	if p := proposed(`Was the deleted instruction "ask for Rosa after 6 PM"?`); len(p) != 1 || p[0] != "ask for Rosa after 6 PM" {
		t.Fatalf("quoted: %q", p)
	}
}

func TestModelIsNotShownWhatOnlyConfirmsAGuess(t *testing.T) {
	fs := []domain.Fragment{{ID: "a", Value: "Active token is ks_stg_3B6V-H2NX."}, {ID: "b", Value: "Launch is September 2."}}
	got := unproposed(fs, "We now use KS_STG_3B6V-H2NX. Which token did it replace?", nil)
	if len(got) != 1 || got[0].ID != "b" {
		t.Fatalf("unproposed = %+v", got)
	}
	if got := unproposed(fs, "When is the launch?", nil); len(got) != 2 {
		t.Fatalf("a question proposing nothing keeps every fragment: %+v", got)
	}
}

func TestNothingFoundQuotingTheQuestionIsDropped(t *testing.T) {
	got := withoutNothingFound(`Launch is July 24. No information about "Was it Granite Mutual?" was found in memory or in the available tools.`)
	if got != "Launch is July 24." {
		t.Fatalf("withoutNothingFound = %q", got)
	}
}

func TestErasureNeverTargetsAScopeName(t *testing.T) {
	scopes := []scopeInfo{{id: "project_harbor", name: regexp.MustCompile(`(?i)\bharbor\b`)}}
	got := erasureTargets("Delete the mapping 'Project Harbor = Granite Mutual' and the Harbor Team note and the Blue Cedar line from memory.", scopes)
	for _, g := range got {
		if strings.Contains(strings.ToLower(g), "harbor") {
			t.Fatalf("a scope's name is a target: %q", got)
		}
	}
	if !contains(got, "Granite Mutual") || !contains(got, "Blue Cedar") {
		t.Fatalf("targets %q", got)
	}
}

func TestProposedNamesSpareScopeNames(t *testing.T) {
	scopes := []scopeInfo{{id: "project_maple", name: regexp.MustCompile(`(?i)\bmaple\b`)}}
	got := proposedIn("Was the deleted Project Maple site called Willow House?", scopes)
	if len(got) != 1 || got[0] != "Willow House" {
		t.Fatalf("proposedIn = %q", got)
	}
}

func TestStatementsKeepDecimalsWhole(t *testing.T) {
	got := statements("Take doxylamine 12.5 mg nightly. Come back for fever over 100.4. Is that clear?")
	for _, want := range []string{"doxylamine 12.5 mg nightly.", "fever over 100.4."} {
		if !strings.Contains(got, want) {
			t.Fatalf("statements %q lost %q", got, want)
		}
	}
	if strings.Contains(got, "clear") {
		t.Fatalf("statements %q kept the question", got)
	}
}
