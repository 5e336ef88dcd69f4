package app_test

import (
	"context"
	"errors"
	"testing"

	"github.com/cmem/cmem/app"
	"github.com/cmem/cmem/domain"
)

// clinicSchema opens every patient's record to the clinic's nurses; the
// front desk's role is not listed and opens nothing.
var clinicSchema = app.RelationshipSchema{
	Types: map[string]app.RelationshipRule{
		"assigned_clinician": {Subject: "clinician_id", Scope: "record_{patient_id}", Read: app.ReadFull, Steward: true},
	},
	Self:  "record_{principal_id}",
	Roles: map[string]app.RoleRule{"nurse": {Over: "patient", Scope: "record_{principal_id}", Read: app.ReadFull}},
}

// A standing role reads exactly the records of the role it is over: the
// nurse reads both patients' records, not the front desk's or another
// nurse's; a principal whose role the schema does not list (reception)
// reads only their own record.
func TestImportRoleGrants(t *testing.T) {
	r := newRig(t, nil)
	ctx := context.Background()
	registerUsers(t, r, "pat_a", "pat_b", "nurse_n", "nurse_m", "desk_d")
	roles := map[string]string{"pat_a": "patient", "pat_b": "patient", "nurse_n": "nurse", "nurse_m": "nurse", "desk_d": "reception"}
	if _, err := r.app.ImportRelationships(ctx, admin, app.ImportRequest{Schema: clinicSchema, Relationships: []app.Relationship{},
		Principals: []string{"pat_a", "pat_b", "nurse_n", "nurse_m", "desk_d"}, PrincipalRoles: roles}); err != nil {
		t.Fatal(err)
	}
	checkReads(t, r, []readCase{
		{"nurse_n", app.ScopeAgent("record_pat_a"), true},
		{"nurse_n", app.ScopeAgent("record_pat_b"), true},
		{"nurse_n", app.ScopeAgent("record_nurse_m"), false},
		{"nurse_n", app.ScopeAgent("record_desk_d"), false},
		{"nurse_n", app.StewardAgent("record_pat_a"), false},
		{"desk_d", app.ScopeAgent("record_pat_a"), false},
		{"desk_d", app.SummaryAgent("record_pat_a"), false},
		{"pat_a", app.ScopeAgent("record_pat_b"), false},
	})
	// The desk cannot use the patient's scope at all: M(u,a,t) decides.
	if _, err := r.app.MemoryView(ctx, domain.Identity{ID: "desk_d"}, app.ViewRequest{Agent: app.ScopeAgent("record_pat_a"), Query: "chart", KUser: 10, KCross: 10}); !errors.Is(err, domain.ErrForbidden) {
		t.Errorf("reception reading a patient's record: %v, want forbidden", err)
	}
}

// A role rule without the role it is over is refused whole, as any bad
// schema: nothing is granted.
func TestImportRoleRefusal(t *testing.T) {
	r := newRig(t, nil)
	registerUsers(t, r, "nurse_n")
	bad := clinicSchema
	bad.Roles = map[string]app.RoleRule{"nurse": {Scope: "record_{principal_id}", Read: app.ReadFull}}
	before, _ := r.log.requests()
	_, err := r.app.ImportRelationships(context.Background(), admin, app.ImportRequest{Schema: bad, PrincipalRoles: map[string]string{"nurse_n": "nurse"}})
	if !errors.Is(err, domain.ErrInvalid) {
		t.Errorf("a role rule without over: %v, want invalid", err)
	}
	if after, _ := r.log.requests(); after != before {
		t.Errorf("a refused import appended %d events", after-before)
	}
}
