package app_test

import (
	"context"
	"strings"
	"testing"

	"github.com/cmem/cmem/app"
)

// A token said into the speaker's own record is kept in the record's
// credentials vault: the speaker reads the rest of what she said but not
// the token; a principal the mapping gives the record's credentials class
// reads it. The same token said later on a project by its member is the
// project's: the vault owns nothing, so the project's members read it.
// Fails when the vault (vaulted) is removed, when a vault's copy may own a
// value (conversation_owners.go), and with the read rule removed.
func TestCredentialInAPersonalRecordIsVaulted(t *testing.T) {
	r := newRig(t, nil, leakyScopes)
	ctx := context.Background()
	registerUsers(t, r, "eva", "dev", "ava")
	schema := app.RelationshipSchema{Self: "record_{principal_id}", Types: map[string]app.RelationshipRule{
		"project_member": {Subject: "principal_id", Scope: "project_{project_id}", Read: app.ReadFull, Steward: true},
		"it_support": {Subject: "principal_id", Scope: "record_{for_principal_id}", Read: app.ReadFull,
			LimitedBy: "access_scope", LimitedTo: map[string]string{"credentials_only": "credentials"}},
	}}
	if _, err := r.app.ImportRelationships(ctx, admin, app.ImportRequest{Schema: schema, Relationships: []app.Relationship{
		{"type": "project_member", "project_id": "orchid", "principal_id": "ava"},
		{"type": "it_support", "principal_id": "dev", "for_principal_id": "eva", "access_scope": "credentials_only"},
	}, Principals: []string{"eva"}}); err != nil {
		t.Fatal(err)
	}
	ans := turn(t, r, "eva", "My office hours move to Tuesday at 3 pm. I noted the current access token is ork_TMP_8D4M-R7PK.")
	if !strings.Contains(ans.Decision.Reason, "vault") {
		t.Errorf("decision %+v does not say the token was vaulted", ans.Decision)
	}
	const q = "current access token office hours"
	got := readAll(t, r, "eva", q)
	if strings.Contains(got, "8D4M") {
		t.Errorf("eva reads the token back through her record: %q", got)
	}
	if !strings.Contains(got, "Tuesday at 3 pm") {
		t.Errorf("eva lost the rest of her turn: %q", got)
	}
	if got := readAll(t, r, "dev", q); !strings.Contains(got, "8D4M") || strings.Contains(got, "Tuesday") {
		t.Errorf("dev (the record's credentials reader) reads %q", got)
	}
	on := turn(t, r, "ava", "Orchid rotation is done: the current Orchid token is ork_TMP_8D4M-R7PK.")
	if len(on.Decision.Scopes) != 1 || on.Decision.Scopes[0] != "project_orchid" {
		t.Errorf("the project's own statement went to %v", on.Decision.Scopes)
	}
	if got := readAll(t, r, "ava", q); !strings.Contains(got, "8D4M") {
		t.Errorf("ava (project member) cannot read the project's token: %q", got)
	}
}

// A resident's own PIN, said in the household's thread without naming
// it, is hers, not the household's: the co-resident does not read it,
// and it is kept in her record's vault. Fails without the personal
// credential rule (conversation_scope.go) and under rulemutation.
func TestOwnCredentialInASharedThreadIsPersonal(t *testing.T) {
	r := newRig(t, nil, leakyScopes)
	ctx := context.Background()
	registerUsers(t, r, "eva", "ava")
	schema := app.RelationshipSchema{Self: "record_{principal_id}", Types: map[string]app.RelationshipRule{
		"project_member": {Subject: "principal_id", Scope: "project_{project_id}", Read: app.ReadFull, Steward: true},
	}}
	if _, err := r.app.ImportRelationships(ctx, admin, app.ImportRequest{Schema: schema, Relationships: []app.Relationship{
		{"type": "project_member", "project_id": "maple", "principal_id": "ava"},
		{"type": "project_member", "project_id": "maple", "principal_id": "eva"},
	}}); err != nil {
		t.Fatal(err)
	}
	if d := turn(t, r, "eva", "The launch moved to June 9.").Decision; len(d.Scopes) != 1 || d.Scopes[0] != "project_maple" {
		t.Fatalf("an unnamed statement went to %v, want eva's one working scope", d.Scopes)
	}
	ans := turn(t, r, "eva", "I set my new bank card PIN to 5581 this morning.")
	if contains(ans.Decision.Scopes, "project_maple") {
		t.Errorf("eva's own PIN went to %v", ans.Decision.Scopes)
	}
	for _, u := range []string{"ava", "eva"} {
		if got := readAll(t, r, u, "bank card PIN launch"); strings.Contains(got, "5581") {
			t.Errorf("%s reads eva's PIN: %q", u, got)
		}
	}
	turn(t, r, "eva", "My therapy appointment moved to Tuesday at 15:00 with Dr. Hale.")
	if got := readAll(t, r, "ava", "therapy appointment Tuesday"); strings.Contains(got, "15:00") {
		t.Errorf("ava reads eva's therapy: %q", got)
	}
	if got := readAll(t, r, "eva", "therapy appointment Tuesday"); !strings.Contains(got, "15:00") {
		t.Errorf("eva lost her own appointment: %q", got)
	}
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// A principal whose work is credentials (a credentials-only reader of two
// projects, so a note naming neither is their own record's) reads back the
// credentials they said into their own record; the projects' full reader
// does not read that record at all. Fails without the own-vault grant
// (relationships_vault.go).
func TestCredentialHandlerReadsOwnVault(t *testing.T) {
	r := newRig(t, nil, leakyScopes)
	ctx := context.Background()
	registerUsers(t, r, "dev", "ava")
	schema := app.RelationshipSchema{Self: "record_{principal_id}", Types: map[string]app.RelationshipRule{
		"project_member": {Subject: "principal_id", Scope: "project_{project_id}", Read: app.ReadFull, Steward: true},
		"it_support": {Subject: "principal_id", Scope: "project_{project_id}", Read: app.ReadFull,
			LimitedBy: "access_scope", LimitedTo: map[string]string{"credentials_only": "credentials"}},
	}}
	if _, err := r.app.ImportRelationships(ctx, admin, app.ImportRequest{Schema: schema, Relationships: []app.Relationship{
		{"type": "project_member", "project_id": "maple", "principal_id": "ava"},
		{"type": "it_support", "principal_id": "dev", "project_id": "maple", "access_scope": "credentials_only"},
		{"type": "it_support", "principal_id": "dev", "project_id": "birch", "access_scope": "credentials_only"},
	}}); err != nil {
		t.Fatal(err)
	}
	turn(t, r, "dev", "Credential update: the active badge is now GRA-8468.")
	if got := readAll(t, r, "dev", "active badge credential"); !strings.Contains(got, "GRA-8468") {
		t.Errorf("dev cannot read his own credential note: %q", got)
	}
	if got := readAll(t, r, "ava", "active badge credential"); strings.Contains(got, "GRA-8468") {
		t.Errorf("ava reads dev's own record: %q", got)
	}
}
