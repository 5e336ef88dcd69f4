package app_test

import (
	"context"
	"strings"
	"testing"

	"github.com/cmem/cmem/app"
	"github.com/cmem/cmem/domain"
)

// A value first said in a record its owner alone reads (the finance
// officer's note to herself) owns nothing: restated on the case, the
// case's readers read it. One first said in a record someone else reads
// (the dean's, read in summary by an assistant) still needs that record:
// the case's readers do not read its restatement, nor does the assistant.
func TestPrivateRecordOwnsNoValue(t *testing.T) {
	ctx := context.Background()
	r := newRig(t, nil)
	registerUsers(t, r, "stu", "fin", "dean", "asst", "adv", "pat")
	schema := app.RelationshipSchema{Types: map[string]app.RelationshipRule{
		"case_subject": {Subject: "principal_id", Scope: "case_{case_id}", Read: app.ReadFull, ReadersOf: "record_{principal_id}", Steward: true},
		"advisor_for":  {Subject: "principal_id", Scope: "record_{for_principal_id}", Read: app.ReadFull, Steward: true},
		"delegate":     {Subject: "principal_id", Scope: "record_{for_principal_id}", Read: app.ReadSummary},
		"member":       {Subject: "principal_id", Scope: "program_{program_id}", Read: app.ReadFull},
	}, Self: "record_{principal_id}"}
	if _, err := r.app.ImportRelationships(ctx, admin, app.ImportRequest{Schema: schema, Relationships: []app.Relationship{
		{"type": "case_subject", "principal_id": "stu", "case_id": "lattice"},
		{"type": "advisor_for", "principal_id": "fin", "for_principal_id": "stu"},
		{"type": "advisor_for", "principal_id": "dean", "for_principal_id": "stu"},
		{"type": "advisor_for", "principal_id": "adv", "for_principal_id": "stu"},
		{"type": "delegate", "principal_id": "asst", "for_principal_id": "dean"},
		{"type": "member", "principal_id": "pat", "program_id": "commons"},
	}}); err != nil {
		t.Fatal(err)
	}
	scopes := func(who, text string) string {
		t.Helper()
		return strings.Join(turn2(t, r, who, "", text).Decision.Scopes, ",")
	}
	if got := scopes("fin", "Distinct from the public Commons line, the private figure is 4,090 USD."); got != "record_fin" {
		t.Fatalf("the finance note went to %s, want record_fin", got)
	}
	if got := scopes("dean", "Distinct from the public Commons line, the dean's figure is 7,070 USD."); got != "record_dean" {
		t.Fatalf("the dean's note went to %s, want record_dean", got)
	}
	if got := scopes("fin", "Lattice note: 4,090 USD remains the active amount."); got != "case_lattice" {
		t.Fatalf("a value first said in a record its owner alone reads made the restatement go to %s, want case_lattice", got)
	}
	if got := scopes("fin", "Lattice note: 7,070 USD is the dean's figure."); got != "case_lattice,record_dean" {
		t.Fatalf("a value first said in a record others read made the restatement go to %s, want case_lattice,record_dean", got)
	}
	read := func(who, agent, word string) bool {
		t.Helper()
		v, err := r.app.MemoryView(ctx, domain.Identity{ID: who}, app.ViewRequest{Agent: agent, Query: "Lattice note figure amount " + word, KUser: 20, KCross: 20})
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
	if !read("adv", app.ScopeAgent("case_lattice"), "4,090 USD") {
		t.Error("the case's reader does not read the restated amount")
	}
	for who, agent := range map[string]string{"adv": app.ScopeAgent("case_lattice"), "asst": app.SummaryAgent("record_dean"), "pat": app.ScopeAgent("program_commons")} {
		if read(who, agent, "7,070 USD") {
			t.Errorf("%s read the dean's figure through %s", who, agent)
		}
	}
	if read("pat", app.ScopeAgent("program_commons"), "4,090 USD") || read("adv", app.ScopeAgent("record_stu"), "private figure") {
		t.Error("the finance officer's own note reached another reader")
	}
}
