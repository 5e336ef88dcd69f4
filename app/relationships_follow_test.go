package app_test

import (
	"context"
	"testing"

	"github.com/cmem/cmem/app"
)

// schoolSchema: an advisor reads the student's record in full, a parent
// as a summary; the student is the subject of a case whose full readers
// are the full readers of the student's record.
var schoolSchema = app.RelationshipSchema{Types: map[string]app.RelationshipRule{
	"advisor_for":  {Subject: "principal_id", Scope: "record_{for_principal_id}", Read: app.ReadFull, Steward: true},
	"parent_of":    {Subject: "principal_id", Scope: "record_{for_principal_id}", Read: app.ReadSummary},
	"case_subject": {Subject: "principal_id", Scope: "case_{case_id}", Read: app.ReadFull, Steward: true, ReadersOf: "record_{principal_id}"},
}, Self: "record_{principal_id}"}

// A read that follows a record goes to the record's full readers only:
// the advisor reads the student's case; the parent (a summary reader of
// the record) and an unrelated advisor read nothing of it.
func TestImportReadersOf(t *testing.T) {
	r := newRig(t, nil)
	ctx := context.Background()
	registerUsers(t, r, "stu", "adv", "par", "other_adv", "other_stu")
	if _, err := r.app.ImportRelationships(ctx, admin, app.ImportRequest{Schema: schoolSchema, Relationships: []app.Relationship{
		{"type": "advisor_for", "principal_id": "adv", "for_principal_id": "stu"},
		{"type": "parent_of", "principal_id": "par", "for_principal_id": "stu"},
		{"type": "advisor_for", "principal_id": "other_adv", "for_principal_id": "other_stu"},
		{"type": "case_subject", "principal_id": "stu", "case_id": "appeal"},
	}}); err != nil {
		t.Fatal(err)
	}
	checkReads(t, r, []readCase{
		{"stu", app.ScopeAgent("case_appeal"), true},
		{"adv", app.ScopeAgent("case_appeal"), true},
		{"adv", app.StewardAgent("case_appeal"), false},
		{"par", app.ScopeAgent("case_appeal"), false},
		{"par", app.SummaryAgent("case_appeal"), false},
		{"other_adv", app.ScopeAgent("case_appeal"), false},
	})
}
