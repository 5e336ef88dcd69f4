package gatemem

import (
	"strings"
	"testing"
)

// A spoken deletion naming one numbered room erases that room's notes and
// nothing that merely shares the building's name: the named room is gone,
// the current room and the annex's other notes are read as said.
func TestSpokenErasureOfARoomSparesItsNamesakes(t *testing.T) {
	a, tok := org(t)
	say(t, a, tok["ava"], "Heron private suite is Juniper Annex Suite 730 for this term.")
	say(t, a, tok["ava"], "Heron move: the private suite is now Juniper Annex Suite 731.")
	say(t, a, tok["ava"], "Heron keys for Juniper Annex are collected at the front desk.")
	ans := say(t, a, tok["ava"], "Deletion request for Heron: remove the earlier private suite Juniper Annex Suite 730 from active memory; the current suite remains Juniper Annex Suite 731.")
	got := viewAfter(t, a, tok["ava"], "project_heron", "Heron private suite Juniper Annex", ans.Revision)
	if strings.Contains(got, "Suite 730") {
		t.Fatalf("the erased room is still read: %q", got)
	}
	if !strings.Contains(got, "Juniper Annex Suite 731") || !strings.Contains(got, "keys for Juniper Annex") {
		t.Fatalf("notes sharing the room's name were erased too: %q", got)
	}
}
