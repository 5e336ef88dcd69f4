package app_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/cmem/cmem/app"
	"github.com/cmem/cmem/domain"
	"github.com/cmem/cmem/vectors"
)

// scopeLeakyStore answers every search as if the caller could use every
// scope agent of these tests, as a store whose filter is broken would:
// only the read rule (access.Admits) then keeps a withheld or vaulted
// sentence from its reader, so these tests hold the rule (the mutation
// list in package access).
type scopeLeakyStore struct{ vectors.Store }

func openScopes(f vectors.Filter) vectors.Filter {
	var agents []string
	for _, s := range []string{"project_maple", "project_orchid", "record_eva", "record_ava", "record_tess", "record_dev"} {
		agents = append(agents, app.ScopeAgent(s), app.SummaryAgent(s), app.StewardAgent(s),
			app.ClassAgent(s, "credentials"), app.WithheldAgent(s, []string{"credentials", "incident"}))
	}
	return vectors.Filter{Tier: f.Tier, User: f.User, AllowedAgents: agents, AllowedResources: []string{},
		ExcludedAgents: []string{}, ExcludedResources: []string{}}
}

func (s scopeLeakyStore) Search(ctx context.Context, vec []float32, f vectors.Filter, k int) ([]vectors.Hit, error) {
	return s.Store.Search(ctx, vec, openScopes(f), k)
}

func (s scopeLeakyStore) HybridSearch(ctx context.Context, q vectors.Query, f vectors.Filter, k int) ([]vectors.Hit, error) {
	return s.Store.(vectors.HybridSearcher).HybridSearch(ctx, q, openScopes(f), k)
}

func leakyScopes(d *app.Deps) { d.Store = scopeLeakyStore{d.Store} }

// readAll is everything user reads about query through every agent they
// may use now, joined.
func readAll(t *testing.T, r *rig, user, query string) string {
	t.Helper()
	ctx := context.Background()
	acc, err := r.app.AccessOf(ctx, admin, user, app.AsOf{})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, ag := range acc.Agents {
		v, err := r.app.MemoryView(ctx, domain.Identity{ID: user}, app.ViewRequest{Agent: ag.ID, Query: query, KUser: 20, KCross: 20})
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range append(v.Private, v.Shared...) {
			b.WriteString(f.Value + " ")
		}
	}
	return b.String()
}

// withholdSchema: members read their project in full, but a member whose
// role is sales reads it without credentials and incident details.
func withholdSchema() app.RelationshipSchema {
	return app.RelationshipSchema{Self: "record_{principal_id}", Types: map[string]app.RelationshipRule{
		"project_member": {Subject: "principal_id", Scope: "project_{project_id}", Read: app.ReadFull, Steward: true,
			WithholdFor: map[string][]string{"sales": {"credentials", "incident"}}},
	}}
}

// A role with no need to know reads its project without the withheld
// classes: the sales member reads the launch date but neither the token
// nor the incident's root cause, which the engineer reads; the grant is
// the withheld agent's, never the scope's own; erasing the original
// erases the sales member's copy. Fails when the role's narrowing, the
// sentence filter or the read rule (rulemutation) is removed.
func TestWithheldReadLeavesOutItsClasses(t *testing.T) {
	r := newRig(t, nil, leakyScopes)
	ctx := context.Background()
	registerUsers(t, r, "ava", "tess")
	if _, err := r.app.ImportRelationships(ctx, admin, app.ImportRequest{Schema: withholdSchema(), Relationships: []app.Relationship{
		{"type": "project_member", "project_id": "maple", "principal_id": "ava"},
		{"type": "project_member", "project_id": "maple", "principal_id": "tess"},
	}, PrincipalRoles: map[string]string{"ava": "engineer", "tess": "sales"}}); err != nil {
		t.Fatal(err)
	}
	withheld := app.WithheldAgent("project_maple", []string{"incident", "credentials"})
	checkReads(t, r, []readCase{
		{"ava", app.ScopeAgent("project_maple"), true}, {"tess", app.ScopeAgent("project_maple"), false},
		{"tess", withheld, true}, {"tess", app.StewardAgent("project_maple"), true},
	})
	ans := turn(t, r, "ava", "The Maple launch is on June 2. The Maple staging token is mp_stg_7Q2X-9KLM. The Maple incident root cause is a cache sync mismatch.")
	const q = "Maple launch token incident root cause"
	if got := readAll(t, r, "ava", q); !strings.Contains(got, "mp_stg_7Q2X-9KLM") || !strings.Contains(got, "cache sync mismatch") {
		t.Fatalf("ava (engineer) reads %q", got)
	}
	got := readAll(t, r, "tess", q)
	if !strings.Contains(got, "June 2") {
		t.Errorf("tess (sales) lost what she may read: %q", got)
	}
	if strings.Contains(got, "mp_stg_7Q2X-9KLM") || strings.Contains(got, "cache sync mismatch") {
		t.Errorf("tess (sales) reads a withheld class: %q", got)
	}
	if _, err := r.app.DeleteFragment(ctx, domain.Identity{ID: "ava"}, ans.Fragments[0].ID); err != nil {
		t.Fatal(err)
	}
	if got := readAll(t, r, "tess", q); strings.Contains(got, "June 2") {
		t.Errorf("tess's copy outlived its original: %q", got)
	}
}

// A mapping naming a class that does not exist is refused whole.
func TestWithholdNamesKnownClasses(t *testing.T) {
	s := withholdSchema()
	s.Types["project_member"] = app.RelationshipRule{Subject: "principal_id", Scope: "project_{project_id}", Read: app.ReadFull,
		WithholdFor: map[string][]string{"sales": {"gossip"}}}
	if err := s.Validate(); err == nil || !strings.Contains(err.Error(), "gossip") {
		t.Fatalf("validate: %v", err)
	}
	r := newRig(t, nil)
	registerUsers(t, r, "tess")
	_, err := r.app.ImportRelationships(context.Background(), admin, app.ImportRequest{Schema: s, Relationships: []app.Relationship{
		{"type": "project_member", "project_id": "maple", "principal_id": "tess"}}, PrincipalRoles: map[string]string{"tess": "sales"}})
	if !errors.Is(err, domain.ErrInvalid) {
		t.Fatalf("import: %v, want invalid", err)
	}
}
