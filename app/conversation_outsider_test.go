package app_test

import (
	"context"
	"strings"
	"testing"

	"github.com/cmem/cmem/app"
	"github.com/cmem/cmem/domain"
)

// campus is a rig where stu and prof work on project atlas, omar on atlas
// alone and lee on project beacon; finaid and advisor read stu's record in
// full, mom reads it in summary.
func campus(t *testing.T) *rig {
	t.Helper()
	r := newRig(t, nil)
	registerUsers(t, r, "stu", "prof", "omar", "lee", "finaid", "advisor", "mom", "outsider")
	schema := app.RelationshipSchema{Types: map[string]app.RelationshipRule{
		"member":      {Subject: "principal_id", Scope: "project_{project_id}", Read: app.ReadFull, Steward: true},
		"advisor_for": {Subject: "principal_id", Scope: "record_{for_principal_id}", Read: app.ReadFull, Steward: true},
		"parent_of":   {Subject: "principal_id", Scope: "record_{for_principal_id}", Read: app.ReadSummary},
	}, Self: "record_{principal_id}"}
	if _, err := r.app.ImportRelationships(context.Background(), admin, app.ImportRequest{Schema: schema, Relationships: []app.Relationship{
		{"type": "member", "principal_id": "stu", "project_id": "atlas"},
		{"type": "member", "principal_id": "prof", "project_id": "atlas"},
		{"type": "member", "principal_id": "omar", "project_id": "atlas"},
		{"type": "member", "principal_id": "lee", "project_id": "beacon"},
		{"type": "advisor_for", "principal_id": "prof", "for_principal_id": "stu"},
		{"type": "advisor_for", "principal_id": "finaid", "for_principal_id": "stu"},
		{"type": "advisor_for", "principal_id": "advisor", "for_principal_id": "stu"},
		{"type": "parent_of", "principal_id": "mom", "for_principal_id": "stu"},
	}, Principals: []string{"outsider"}}); err != nil {
		t.Fatal(err)
	}
	return r
}

// A turn naming a project the speaker takes no part in, said by staff who
// work on a student's record, goes to that record alone: the record's
// other full readers and the speaker read it; the record's summary reader,
// the project's members who do not read the record and an outsider do
// not. A project member speaking of another project, and talk of removing
// something, keep the narrower reading of both scopes.
func TestOutsiderTurnStaysInTheSpeakersRecord(t *testing.T) {
	ctx := context.Background()
	r := campus(t)
	ans := turn2(t, r, "finaid", "", "Funding note: Stu's Atlas stipend is approved. The Atlas dry-run moves to May 12 at 10:00.")
	if got := strings.Join(ans.Decision.Scopes, ","); got != "record_stu" || !strings.Contains(ans.Decision.Reason, "own context alone") {
		t.Fatalf("an outsider's turn went to %s (%s), want record_stu alone", got, ans.Decision.Reason)
	}
	if got := strings.Join(turn2(t, r, "omar", "", "Beacon dry-run moves to May 14 at 11:00.").Decision.Scopes, ","); got != "project_atlas,project_beacon" {
		t.Fatalf("a project member's turn about another project went to %s, want both projects", got)
	}
	if got := strings.Join(turn2(t, r, "finaid", "", "Please delete the old Atlas stipend note.").Decision.Scopes, ","); got != "project_atlas,record_stu" {
		t.Fatalf("talk of removing something went to %s, want project_atlas,record_stu", got)
	}
	read := func(who, agent, word string) bool {
		t.Helper()
		v, err := r.app.MemoryView(ctx, domain.Identity{ID: who}, app.ViewRequest{Agent: agent, Query: "Atlas stipend dry-run May " + word, KUser: 20, KCross: 20})
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
	for _, who := range []string{"finaid", "advisor", "prof", "stu"} {
		if !read(who, app.ScopeAgent("record_stu"), "May 12") {
			t.Errorf("%s, a full reader of the record, does not read the outsider's turn", who)
		}
	}
	for who, agent := range map[string]string{
		"mom":      app.SummaryAgent("record_stu"),
		"omar":     app.ScopeAgent("project_atlas"),
		"lee":      app.ScopeAgent("project_beacon"),
		"outsider": app.ScopeAgent("record_outsider"),
	} {
		if read(who, agent, "May 12") {
			t.Errorf("%s read the outsider's turn through %s", who, agent)
		}
	}
	if read("lee", app.ScopeAgent("project_beacon"), "May 14") {
		t.Error("another project's member read what a project member said of it")
	}
}
