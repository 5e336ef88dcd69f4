package app_test

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/cmem/cmem/app"
	"github.com/cmem/cmem/domain"
	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/projectors/access"
)

// officeSchema is a small mapping: members read their project in full,
// a delegate reads the executive's record as a summary only.
var officeSchema = app.RelationshipSchema{Types: map[string]app.RelationshipRule{
	"project_member":     {Subject: "principal_id", Scope: "project_{project_id}", Read: app.ReadFull, Steward: true},
	"executive_delegate": {Subject: "principal_id", Scope: "person_{for_principal_id}", Read: app.ReadFull, LimitedBy: "access_scope"},
}, Self: "person_{principal_id}"}

func registerUsers(t *testing.T, r *rig, ids ...string) {
	t.Helper()
	for _, u := range ids {
		if _, _, err := r.app.RegisterUser(context.Background(), admin, u, "user"); err != nil {
			t.Fatal(err)
		}
	}
}

// Imported relationships are ordinary grants: a member reads what is
// written through the project's scope agent, a non-member and a
// summary-only delegate do not; the grants are on the log as grant events.
func TestImportRelationshipsGrants(t *testing.T) {
	r := newRig(t, nil)
	ctx := context.Background()
	registerUsers(t, r, "ava", "noah", "erin", "marco")
	ans, err := r.app.ImportRelationships(ctx, admin, app.ImportRequest{Schema: officeSchema, Relationships: []app.Relationship{
		{"type": "project_member", "project_id": "maple", "principal_id": "ava"},
		{"type": "executive_delegate", "principal_id": "erin", "for_principal_id": "marco", "access_scope": "scheduling_only"},
	}, Principals: []string{"noah", "marco"}})
	if err != nil {
		t.Fatal(err)
	}
	has := func(user, agent string) bool {
		acc, err := r.app.AccessOf(ctx, admin, user, app.AsOf{})
		if err != nil {
			t.Fatal(err)
		}
		return slices.ContainsFunc(acc.Agents, func(a access.AgentAccess) bool { return a.ID == agent })
	}
	want := map[[2]string]bool{
		{"ava", app.ScopeAgent("project_maple")}: true, {"ava", app.StewardAgent("project_maple")}: true,
		{"erin", app.SummaryAgent("person_marco")}: true, {"erin", app.ScopeAgent("person_marco")}: false,
		{"marco", app.ScopeAgent("person_marco")}: true, {"noah", app.ScopeAgent("project_maple")}: false,
		{"noah", app.ScopeAgent("person_noah")}: true,
	}
	got := map[[2]string]bool{}
	for _, g := range ans.Grants {
		got[[2]string{g.User, g.Agent}] = true
	}
	for k, w := range want {
		if has(k[0], k[1]) != w {
			t.Errorf("access of %s to %s: %v, want %v", k[0], k[1], !w, w)
		}
		if got[k] != w {
			t.Errorf("grant %s → %s: %v, want %v (grants %+v)", k[0], k[1], got[k], w, ans.Grants)
		}
	}
	granted := 0
	for _, e := range r.log.envelopes() {
		if e.Type == "cmem.user_agent.granted" {
			granted++
		}
	}
	if granted != len(ans.Grants) {
		t.Errorf("%d grant events for %d grants", granted, len(ans.Grants))
	}
	// M(u,a,t) decides: ava writes through the project scope; noah cannot
	// even use the scope's agent.
	if _, err := r.app.WriteFragment(ctx, domain.Identity{ID: "ava"}, app.WriteRequest{Agent: app.ScopeAgent("project_maple"),
		Key: "maple budget", Value: "Maple budget is 221,000 USD", Tier: events.TierShared}); err != nil {
		t.Fatal(err)
	}
	if _, err := r.app.MemoryView(ctx, domain.Identity{ID: "noah"}, app.ViewRequest{Agent: app.ScopeAgent("project_maple"), Query: "maple budget", KUser: 10, KCross: 10}); !errors.Is(err, domain.ErrForbidden) {
		t.Errorf("a non-member reading the project's scope: %v, want forbidden", err)
	}
}

// Bad input is a 4xx that grants nothing: a malformed schema, an unknown
// type, a missing field, a bad scope id, a caller who is not an admin (an
// unregistered principal is a 404 through the API: experiments/gatemem).
func TestImportRelationshipsRefusals(t *testing.T) {
	r := newRig(t, nil)
	ctx := context.Background()
	registerUsers(t, r, "ava")
	cases := []struct {
		name string
		req  app.ImportRequest
		want error
	}{
		{"empty schema", app.ImportRequest{Relationships: []app.Relationship{{"type": "project_member"}}}, domain.ErrInvalid},
		{"bad read", app.ImportRequest{Schema: app.RelationshipSchema{Types: map[string]app.RelationshipRule{"m": {Subject: "p", Scope: "s", Read: "all"}}}}, domain.ErrInvalid},
		{"unknown type", app.ImportRequest{Schema: officeSchema, Relationships: []app.Relationship{{"type": "friend_of", "principal_id": "ava"}}}, domain.ErrInvalid},
		{"missing field", app.ImportRequest{Schema: officeSchema, Relationships: []app.Relationship{{"type": "project_member", "principal_id": "ava"}}}, domain.ErrInvalid},
		{"bad scope id", app.ImportRequest{Schema: officeSchema, Relationships: []app.Relationship{{"type": "project_member", "project_id": "ma ple", "principal_id": "ava"}}}, domain.ErrInvalid},
		{"not admin", app.ImportRequest{Schema: officeSchema}, domain.ErrForbidden},
	}
	for _, c := range cases {
		by := admin
		if c.name == "not admin" {
			by = domain.Identity{ID: "ava"}
		}
		before, _ := r.log.requests()
		_, err := r.app.ImportRelationships(ctx, by, c.req)
		if !errors.Is(err, c.want) {
			t.Errorf("%s: %v, want %v", c.name, err, c.want)
		}
		if after, _ := r.log.requests(); after != before {
			t.Errorf("%s: a refused import appended %d events", c.name, after-before)
		}
	}
}
