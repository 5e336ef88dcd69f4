package gatemem

import (
	"context"
	"strings"
	"testing"
)

// A turn giving a new value for something supersedes the earlier turns of
// the scope that were wholly about it: the old value is no longer shown,
// while a turn that also said other things stays.
func TestTurnStatingANewValueSupersedesTheOld(t *testing.T) {
	a, tok := org(t)
	say(t, a, tok["ava"], "The Heron staging token is hx_stg_1111-AAAA for this sprint.")
	say(t, a, tok["ava"], "Heron budget is 200,000 USD and the staging token hx_stg_1111-AAAA goes to the vendor review.")
	ans := say(t, a, tok["ava"], "Rotation done: the current Heron staging token is now hx_stg_2222-BBBB.")
	if len(ans.Fragments) != 1 {
		t.Fatalf("fragments %+v", ans.Fragments)
	}
	got := viewAfter(t, a, tok["ava"], "project_heron", "Heron staging token", ans.Revision)
	if strings.Contains(got, "hx_stg_1111-AAAA for this sprint") {
		t.Fatalf("the superseded turn is still shown: %q", got)
	}
	if !strings.Contains(got, "hx_stg_2222-BBBB") || !strings.Contains(got, "200,000 USD") {
		t.Fatalf("the new value, or a turn that said more, is missing: %q", got)
	}
	q, err := a.ask(context.Background(), tok["ava"], "What is the current Heron staging token?")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(q.Answer, "hx_stg_2222-BBBB") {
		t.Fatalf("answer %s %q", q.Outcome, q.Answer)
	}
}

// A speaker who cannot read the scope supersedes nothing in it: the
// write never learns of, or hides, a value its writer could not see.
func TestTurnSupersedesOnlyWhatTheSpeakerReads(t *testing.T) {
	a, tok := org(t)
	say(t, a, tok["ava"], "The Heron staging token is hx_stg_1111-AAAA for this sprint.")
	say(t, a, tok["theo"], "Heron update: the current Heron staging token is now hx_stg_9999-ZZZZ.")
	if got := view(t, a, tok["ava"], "project_heron", "Heron staging token"); !strings.Contains(got, "hx_stg_1111-AAAA") {
		t.Fatalf("a summary-only speaker hid a value he cannot read: %q", got)
	}
}

// A status line listing several things ("date …, budget …, cap …") is not
// wholly about the one a later turn updates: it stays.
func TestTurnDoesNotSupersedeAStatusList(t *testing.T) {
	a, tok := org(t)
	say(t, a, tok["ava"], "Current status for Heron: target date remains July 24, 2026, budget is 231,000 USD, discount cap is 7%.")
	say(t, a, tok["ava"], "Heron target date is July 24, 2026 for now.")
	say(t, a, tok["ava"], "Finance: the approved Heron budget is now 219,000 USD.")
	got := view(t, a, tok["ava"], "project_heron", "Heron status budget target date")
	if !strings.Contains(got, "231,000 USD, discount cap is 7%") {
		t.Fatalf("a status list was hidden by an update of one of its items: %q", got)
	}
	upd := say(t, a, tok["ava"], "Update: the Heron target date is now August 5, 2026.")
	if got := viewAfter(t, a, tok["ava"], "project_heron", "Heron target date", upd.Revision); strings.Contains(got, "July 24, 2026 for now") {
		t.Fatalf("the superseded date turn is still shown: %q", got)
	}
}
