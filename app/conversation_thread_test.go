package app_test

import (
	"context"
	"strings"
	"testing"

	"github.com/cmem/cmem/app"
	"github.com/cmem/cmem/domain"
)

// clinic is a rig where nurse reads the records of two patients, elena and
// mina, in full, and linda reads elena's in summary only.
func clinic(t *testing.T) *rig {
	t.Helper()
	r := newRig(t, nil)
	registerUsers(t, r, "elena", "mina", "nurse", "linda")
	schema := app.RelationshipSchema{Types: map[string]app.RelationshipRule{
		"care_team": {Subject: "principal_id", Scope: "record_{patient_id}", Read: app.ReadFull},
		"family":    {Subject: "principal_id", Scope: "record_{patient_id}", Read: app.ReadSummary},
	}, Self: "record_{principal_id}"}
	if _, err := r.app.ImportRelationships(context.Background(), admin, app.ImportRequest{Schema: schema, Relationships: []app.Relationship{
		{"type": "care_team", "principal_id": "nurse", "patient_id": "elena"},
		{"type": "care_team", "principal_id": "nurse", "patient_id": "mina"},
		{"type": "family", "principal_id": "linda", "patient_id": "elena"},
	}, Principals: []string{"elena", "mina"}}); err != nil {
		t.Fatal(err)
	}
	return r
}

// A turn naming no scope, said by someone who works in several, goes to
// the one scope of the thread's last turns they read in full — and only
// then: two scopes in the thread, another thread, talk of removing
// something, or a reader of the thread's scope in summary only keep the
// narrower reading (their own record). The inherited turn is read by the
// scope's full readers, not by its summary readers, nor by anyone outside.
func TestThreadScopeInherited(t *testing.T) {
	ctx := context.Background()
	r := clinic(t)
	say := func(who, thread, text string) app.TurnAnswer {
		t.Helper()
		ans, err := r.app.IngestTurn(ctx, domain.Identity{ID: who}, app.TurnRequest{Text: text, Thread: thread})
		if err != nil {
			t.Fatal(err)
		}
		return ans
	}
	scopes := func(a app.TurnAnswer) string { return strings.Join(a.Decision.Scopes, ",") }

	say("elena", "a", "I have had cramps since last night.")
	plan := say("nurse", "a", "Plan: acetaminophen 650 mg every six hours, and stop ibuprofen.")
	if got := scopes(plan); got != "record_elena" {
		t.Fatalf("an unnamed turn in elena's thread went to %s (%s), want record_elena", got, plan.Decision.Reason)
	}
	if got := scopes(say("nurse", "a", "Pickup is Friday at 9:00 at the east entrance.")); got != "record_elena" {
		t.Fatalf("a second unnamed turn in elena's thread went to %s, want record_elena", got)
	}
	if got := scopes(say("linda", "a", "I drive her on Fridays.")); got != "record_linda" {
		t.Fatalf("a summary reader's unnamed turn went to %s, want their own record", got)
	}
	if got := scopes(say("nurse", "b", "Plan: rest and fluids.")); got != "record_nurse" {
		t.Fatalf("a turn of a thread with no history went to %s, want the speaker's own record", got)
	}
	if got := scopes(say("nurse", "a", "The old backup line was removed from the note.")); got != "record_nurse" {
		t.Fatalf("talk of removing something went to %s, want the speaker's own record", got)
	}
	say("mina", "a", "My rash is worse today.")
	if got := scopes(say("nurse", "a", "Apply the cream twice daily.")); got != "record_nurse" {
		t.Fatalf("a turn in a thread of two records went to %s, want the speaker's own record", got)
	}

	read := func(who, agent, word string) bool {
		t.Helper()
		v, err := r.app.MemoryView(ctx, domain.Identity{ID: who}, app.ViewRequest{Agent: agent, Query: "plan pickup " + word, KCross: 20})
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range v.Shared {
			if strings.Contains(f.Value, word) {
				return true
			}
		}
		return false
	}
	if !read("elena", app.ScopeAgent("record_elena"), "acetaminophen") {
		t.Fatal("elena does not read the plan said in her thread")
	}
	if read("mina", app.ScopeAgent("record_mina"), "acetaminophen") {
		t.Fatal("mina read a turn of elena's thread")
	}
	if read("linda", app.SummaryAgent("record_elena"), "entrance") {
		t.Fatal("a summary reader read a turn whose scope was taken from the thread")
	}
}

// A deletion request after a first sentence ("My mobile is stable now.
// Delete the old backup line …") erases, as one opening the turn does.
func TestErasureRequestAfterAFirstSentence(t *testing.T) {
	ctx := context.Background()
	r := clinic(t)
	elena := domain.Identity{ID: "elena"}
	first, err := r.app.IngestTurn(ctx, elena, app.TurnRequest{Text: "My backup line is 415-555-0168 at the front desk."})
	if err != nil {
		t.Fatal(err)
	}
	ans, err := r.app.IngestTurn(ctx, elena, app.TurnRequest{Text: "My mobile is stable now. Delete the old backup line 415-555-0168."})
	if err != nil {
		t.Fatal(err)
	}
	for _, act := range ans.Governance {
		for _, id := range act.Targets {
			if act.Applied && id == first.Fragments[0].ID {
				return
			}
		}
	}
	t.Fatalf("the request did not erase the fragment holding the line: %+v", ans.Governance)
}

// A month that is also a first name, followed by a day's number, is a
// date: the turn does not go to that person's record.
func TestMonthFollowedByADayIsNoName(t *testing.T) {
	ctx := context.Background()
	r := newRig(t, nil)
	registerUsers(t, r, "june", "kai")
	schema := app.RelationshipSchema{Types: map[string]app.RelationshipRule{}, Self: "record_{principal_id}"}
	if _, err := r.app.ImportRelationships(ctx, admin, app.ImportRequest{Schema: schema, Relationships: []app.Relationship{},
		Principals: []string{"june", "kai"}}); err != nil {
		t.Fatal(err)
	}
	for text, want := range map[string]string{
		"Booked: Tuesday June 9 at 9:00 AM colonoscopy.": "record_kai",
		"June has the refill ready.":                     "record_june,record_kai",
	} {
		ans, err := r.app.IngestTurn(ctx, domain.Identity{ID: "kai"}, app.TurnRequest{Text: text})
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Join(ans.Decision.Scopes, ","); got != want {
			t.Errorf("%q went to %s (%s), want %s", text, got, ans.Decision.Reason, want)
		}
	}
}

// An unnamed turn restating a value first said in another scope is decided
// as if it had no thread: the thread's scope and the value's owner at
// once would leave a new value said with them without one owner.
func TestInheritedTurnTakesNoOtherScopesValue(t *testing.T) {
	ctx := context.Background()
	r := clinic(t)
	say := func(who, thread, text string) []string {
		t.Helper()
		ans, err := r.app.IngestTurn(ctx, domain.Identity{ID: who}, app.TurnRequest{Text: text, Thread: thread})
		if err != nil {
			t.Fatal(err)
		}
		return ans.Decision.Scopes
	}
	say("mina", "m", "My pharmacy pickup code is RX-4471.")
	say("elena", "a", "I have had cramps since last night.")
	for _, s := range say("nurse", "a", "Pickup code RX-4471 is at the desk, with the new 3,330 USD voucher.") {
		if s == "record_elena" {
			t.Fatalf("a turn restating mina's value went to elena's record too")
		}
	}
}

// A value first said only in a turn that needed two scopes (a project
// named by an outsider, with the outsider's own record) belongs to both
// for a turn in a third scope; restated in one of them, it is that
// scope's own business.
func TestValueFirstSaidInTwoScopesOwnsBoth(t *testing.T) {
	ctx := context.Background()
	r := newRig(t, nil)
	registerUsers(t, r, "ava", "noah")
	schema := app.RelationshipSchema{Types: map[string]app.RelationshipRule{
		"project_member": {Subject: "principal_id", Scope: "project_{project_id}", Read: app.ReadFull, Steward: true},
	}, Self: "record_{principal_id}"}
	if _, err := r.app.ImportRelationships(ctx, admin, app.ImportRequest{Schema: schema, Relationships: []app.Relationship{
		{"type": "project_member", "project_id": "heron", "principal_id": "ava"},
		{"type": "project_member", "project_id": "beacon", "principal_id": "ava"},
	}, Principals: []string{"noah"}}); err != nil {
		t.Fatal(err)
	}
	say := func(who, text string) string {
		t.Helper()
		ans, err := r.app.IngestTurn(ctx, domain.Identity{ID: who}, app.TurnRequest{Text: text})
		if err != nil {
			t.Fatal(err)
		}
		return strings.Join(ans.Decision.Scopes, ",")
	}
	if got := say("noah", "Heron private bridge amount is 4,440 USD."); got != "project_heron,record_noah" {
		t.Fatalf("the outsider's turn went to %s", got)
	}
	if got := say("ava", "Beacon public line is 4,445 USD, close to the 4,440 USD amount."); got != "project_beacon,project_heron,record_noah" {
		t.Fatalf("restated in a third scope it went to %s, want the value's two first scopes too", got)
	}
	if got := say("ava", "Heron bridge amount stays 4,440 USD."); got != "project_heron" {
		t.Fatalf("restated in one of its first scopes it went to %s, want project_heron alone", got)
	}
}
