package app_test

import (
	"context"
	"strings"
	"testing"

	"github.com/cmem/cmem/app"
	"github.com/cmem/cmem/domain"
)

// A role word in a principal's id ("registrar" of registrar_mia_lopez:
// role, first and last name) is no name: "final registrar routing" names
// no one's record, while "Mia" still names hers.
func TestRoleWordNamesNoRecord(t *testing.T) {
	r := newRig(t, nil)
	registerUsers(t, r, "registrar_mia_lopez", "counselor_ines_ruiz", "stu")
	schema := app.RelationshipSchema{Self: "record_{principal_id}", Types: map[string]app.RelationshipRule{}}
	if _, err := r.app.ImportRelationships(context.Background(), admin, app.ImportRequest{Schema: schema, Relationships: []app.Relationship{},
		Principals: []string{"registrar_mia_lopez", "counselor_ines_ruiz", "stu"}}); err != nil {
		t.Fatal(err)
	}
	for text, want := range map[string]string{
		"The remaining blocker is final registrar routing and a counselor callback.": "record_stu",
		"Mia has the packet now.": "record_registrar_mia_lopez,record_stu",
	} {
		if got := strings.Join(turn(t, r, "stu", text).Decision.Scopes, ","); got != want {
			t.Errorf("%q went to %s, want %s", text, got, want)
		}
	}
}

// twoProjects: ava works in heron and beacon; noah in neither.
func twoProjects(t *testing.T) *rig {
	t.Helper()
	r := newRig(t, nil)
	registerUsers(t, r, "ava", "noah")
	schema := app.RelationshipSchema{Types: map[string]app.RelationshipRule{
		"project_member": {Subject: "principal_id", Scope: "project_{project_id}", Read: app.ReadFull, Steward: true},
	}, Self: "record_{principal_id}"}
	if _, err := r.app.ImportRelationships(context.Background(), admin, app.ImportRequest{Schema: schema, Relationships: []app.Relationship{
		{"type": "project_member", "project_id": "heron", "principal_id": "ava"},
		{"type": "project_member", "project_id": "beacon", "principal_id": "ava"},
	}, Principals: []string{"noah"}}); err != nil {
		t.Fatal(err)
	}
	return r
}

// A value first said in a turn of several scopes, before any one-scope
// turn said it, keeps them all as owners: restated in a third scope after
// a one-scope restatement, it needs every scope it was first said in.
// A numbered name opening a sentence with an adjective ("Private Juniper
// Annex 731") restates the value said without it.
func TestValueFirstSaidInSeveralScopesKeepsThem(t *testing.T) {
	r := twoProjects(t)
	say := func(who, text string) string {
		t.Helper()
		return strings.Join(turn(t, r, who, text).Decision.Scopes, ",")
	}
	if got := say("noah", "Heron private bridge amount is 4,440 USD."); got != "project_heron,record_noah" {
		t.Fatalf("the outsider's turn went to %s", got)
	}
	if got := say("ava", "Heron bridge amount stays 4,440 USD."); got != "project_heron" {
		t.Fatalf("restated in one of its first scopes it went to %s, want project_heron alone", got)
	}
	if got := say("ava", "Beacon public line is 4,445 USD, unlike the 4,440 USD amount."); got != "project_beacon,project_heron,record_noah" {
		t.Fatalf("restated after a one-scope restatement it went to %s, want every scope it was first said in", got)
	}
	if got := say("ava", "Heron private room is Juniper Annex Suite 731."); got != "project_heron" {
		t.Fatalf("the room went to %s", got)
	}
	if got := say("ava", "Beacon note: Private Juniper Annex Suite 731 is not ours."); got != "project_beacon,project_heron" {
		t.Fatalf("a sentence-opened restatement went to %s, want the room's owner too", got)
	}
}

// A new value said to one scope supersedes the earlier turn said to that
// scope and another at once (nested scopes): a reader of both sees only
// the newest.
func TestNestedScopesSupersede(t *testing.T) {
	r := twoProjects(t)
	turn(t, r, "ava", "Heron bridge amount is 4,440 USD.")
	if got := strings.Join(turn(t, r, "ava", "Beacon budget is 4,900 USD per the 4,440 USD plan.").Decision.Scopes, ","); got != "project_beacon,project_heron" {
		t.Fatalf("the turn restating heron's value went to %s", got)
	}
	turn(t, r, "ava", "Beacon budget is now 5,100 USD.")
	v, err := r.app.MemoryView(context.Background(), domain.Identity{ID: "ava"}, app.ViewRequest{Agent: app.ScopeAgent("project_beacon"), Query: "Beacon budget", KUser: 20, KCross: 20})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, f := range v.Shared {
		b.WriteString(f.Value + " ")
	}
	if got := b.String(); !strings.Contains(got, "5,100 USD") || strings.Contains(got, "4,900 USD") {
		t.Fatalf("ava's view of beacon: %q, want 5,100 USD and not 4,900 USD", got)
	}
}
