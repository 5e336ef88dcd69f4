package app_test

import (
	"context"
	"strings"
	"testing"

	"github.com/cmem/cmem/app"
	"github.com/cmem/cmem/domain"
)

// school is a rig where stu's appeal case is read in full by every full
// reader of stu's record (advisor, registrar); mom reads stu's record in
// summary, it reads the case's credentials only, and nurse reads the
// records of two students, stu and kim, in full.
func school(t *testing.T) *rig {
	t.Helper()
	r := newRig(t, nil)
	registerUsers(t, r, "stu", "kim", "advisor", "registrar", "mom", "it", "nurse", "outsider")
	schema := app.RelationshipSchema{Types: map[string]app.RelationshipRule{
		"case_subject": {Subject: "principal_id", Scope: "case_{case_id}", Read: app.ReadFull, ReadersOf: "record_{principal_id}", Steward: true},
		"advisor_for":  {Subject: "principal_id", Scope: "record_{for_principal_id}", Read: app.ReadFull, Steward: true},
		"parent_of":    {Subject: "principal_id", Scope: "record_{for_principal_id}", Read: app.ReadSummary},
		"it_support": {Subject: "principal_id", Scope: "case_{case_id}", Read: app.ReadFull, LimitedBy: "access_scope",
			LimitedTo: map[string]string{"credentials_only": "credentials"}},
	}, Self: "record_{principal_id}"}
	if _, err := r.app.ImportRelationships(context.Background(), admin, app.ImportRequest{Schema: schema, Relationships: []app.Relationship{
		{"type": "case_subject", "principal_id": "stu", "case_id": "appeal"},
		{"type": "advisor_for", "principal_id": "advisor", "for_principal_id": "stu"},
		{"type": "advisor_for", "principal_id": "registrar", "for_principal_id": "stu"},
		{"type": "parent_of", "principal_id": "mom", "for_principal_id": "stu"},
		{"type": "it_support", "principal_id": "it", "case_id": "appeal", "access_scope": "credentials_only"},
		{"type": "advisor_for", "principal_id": "nurse", "for_principal_id": "stu"},
		{"type": "advisor_for", "principal_id": "nurse", "for_principal_id": "kim"},
	}, Principals: []string{"stu", "kim", "outsider"}}); err != nil {
		t.Fatal(err)
	}
	return r
}

// A turn naming no scope, said by staff whose scopes are nested (the
// case's full readers are exactly the record's), goes to the narrowest of
// them, where the other staff of the case read it; a summary reader of
// the record, a credentials-only reader of the case, an outsider and the
// staff of another student do not. A speaker whose scopes are not nested
// (two students' records) and talk of removing something keep the
// speaker's own record.
func TestUnnamedTurnGoesToTheNestedScope(t *testing.T) {
	ctx := context.Background()
	r := school(t)
	scopes := func(who, thread, text string) string {
		t.Helper()
		return strings.Join(turn2(t, r, who, thread, text).Decision.Scopes, ",")
	}
	if got := scopes("advisor", "a", "The portal token is ptl_77A9. The current site string remains Annex Classroom 5."); got != "case_appeal" {
		t.Fatalf("an unnamed turn of nested scopes went to %s, want case_appeal", got)
	}
	if got := scopes("nurse", "b", "The current locker is Locker 40."); got != "record_nurse" {
		t.Fatalf("an unnamed turn of two students' staff went to %s, want record_nurse", got)
	}
	if got := scopes("advisor", "c", "The old wording was removed from the file."); got != "record_advisor" {
		t.Fatalf("talk of removing something went to %s, want record_advisor", got)
	}
	read := func(who, agent, word string) bool {
		t.Helper()
		v, err := r.app.MemoryView(ctx, domain.Identity{ID: who}, app.ViewRequest{Agent: agent, Query: "portal token site string locker " + word, KUser: 20, KCross: 20})
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range append(v.Private, v.Shared...) {
			if strings.Contains(f.Value, word) {
				return true
			}
		}
		return false
	}
	if !read("registrar", app.ScopeAgent("case_appeal"), "Annex") {
		t.Fatal("the case's other staff do not read the unnamed turn")
	}
	for who, agent := range map[string]string{
		"mom":      app.SummaryAgent("record_stu"),
		"it":       app.ClassAgent("case_appeal", "credentials"),
		"kim":      app.ScopeAgent("record_kim"),
		"outsider": app.ScopeAgent("record_outsider"),
	} {
		if read(who, agent, "Annex") || read(who, agent, "ptl_77A9") {
			t.Errorf("%s read the unnamed turn through %s", who, agent)
		}
	}
	if read("stu", app.ScopeAgent("record_stu"), "Locker") || read("kim", app.ScopeAgent("record_kim"), "Locker") {
		t.Error("a student read what staff of two students said unnamed")
	}
}

// turn2 says text as user in thread.
func turn2(t *testing.T, r *rig, user, thread, text string) app.TurnAnswer {
	t.Helper()
	ans, err := r.app.IngestTurn(context.Background(), domain.Identity{ID: user}, app.TurnRequest{Text: text, Thread: thread})
	if err != nil {
		t.Fatal(err)
	}
	return ans
}

// A turn naming no scope, said by a specialist who reads one scope only
// for one class of its details (IT, credentials only), goes to that
// scope, where its full readers read it and the specialist reads back
// only its credentials; a summary reader's unnamed turn and talk of
// removing something keep the speaker's own record.
func TestUnnamedTurnOfAClassReaderGoesToItsScope(t *testing.T) {
	ctx := context.Background()
	r := school(t)
	scopes := func(who, text string) string {
		t.Helper()
		return strings.Join(turn2(t, r, who, "", text).Decision.Scopes, ",")
	}
	if got := scopes("it", "The portal token is ptl_5521. The lab is Annex Room 7 after noon."); got != "case_appeal" {
		t.Fatalf("an unnamed turn of a class reader went to %s, want case_appeal", got)
	}
	if got := scopes("it", "The old lab room Annex Room 3 was retired."); got != "record_it" {
		t.Fatalf("a class reader's talk of removing something went to %s, want record_it", got)
	}
	if got := scopes("mom", "I can drive on Fridays."); got != "record_mom" {
		t.Fatalf("a summary reader's unnamed turn went to %s, want record_mom", got)
	}
	read := func(who, agent, word string) bool {
		t.Helper()
		v, err := r.app.MemoryView(ctx, domain.Identity{ID: who}, app.ViewRequest{Agent: agent, Query: "portal token lab room " + word, KUser: 20, KCross: 20})
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range append(v.Private, v.Shared...) {
			if strings.Contains(f.Value, word) {
				return true
			}
		}
		return false
	}
	if !read("advisor", app.ScopeAgent("case_appeal"), "Annex Room 7") || !read("advisor", app.ScopeAgent("case_appeal"), "ptl_5521") {
		t.Fatal("the case's full readers do not read the class reader's unnamed turn")
	}
	if !read("it", app.ClassAgent("case_appeal", "credentials"), "ptl_5521") || read("it", app.ClassAgent("case_appeal", "credentials"), "Annex Room 7") {
		t.Fatal("the class reader does not read back only the credential")
	}
	if read("mom", app.SummaryAgent("record_stu"), "ptl_5521") || read("kim", app.ScopeAgent("record_kim"), "Annex Room 7") {
		t.Fatal("a reader outside the case read the class reader's turn")
	}
}
