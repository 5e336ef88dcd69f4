package gatemem

import (
	"strings"
	"testing"
)

// A spoken confirmation that erases one value and keeps another
// ("2,760 USD is removed …; 2,730 USD remains current") erases the first
// and leaves the current one readable (app/governance_erase_kept.go).
func TestSpokenErasureKeepsTheValueSaidCurrent(t *testing.T) {
	a, tok := org(t)
	say(t, a, tok["ava"], "Heron support amount is 2,760 USD for this term.")
	say(t, a, tok["ava"], "Heron support amount is now 2,730 USD.")
	ans := say(t, a, tok["ava"], "Deletion applied for Heron: 2,760 USD is removed from retained memory; 2,730 USD remains current.")
	got := viewAfter(t, a, tok["ava"], "project_heron", "Heron support amount", ans.Revision)
	if strings.Contains(got, "2,760") {
		t.Fatalf("the erased amount is still read: %q", got)
	}
	if !strings.Contains(got, "2,730 USD") {
		t.Fatalf("the amount said current was erased too: %q", got)
	}
}
