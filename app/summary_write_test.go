package app_test

import (
	"context"
	"strings"
	"testing"

	"github.com/cmem/cmem/app"
	"github.com/cmem/cmem/domain"
)

// A turn's summary is derived from it: the summary reader reads the
// summary (never the original), and deleting the original — the owner's
// or an admin's DeleteFragment — erases the summary with it.
func TestSummaryIsErasedWithItsOriginal(t *testing.T) {
	r := newRig(t, nil)
	ctx := context.Background()
	registerUsers(t, r, "ava", "theo")
	schema := officeSchema
	schema.Types["contractor"] = app.RelationshipRule{Subject: "principal_id", Scope: "project_{project_id}", Read: app.ReadSummary}
	if _, err := r.app.ImportRelationships(ctx, admin, app.ImportRequest{Schema: schema, Relationships: []app.Relationship{
		{"type": "project_member", "project_id": "maple", "principal_id": "ava"},
		{"type": "contractor", "project_id": "maple", "principal_id": "theo"},
	}}); err != nil {
		t.Fatal(err)
	}
	ans := turn(t, r, "ava", "Maple demo is on June 2. The Maple budget is 221,000 USD.")
	read := func() string {
		v, err := r.app.MemoryView(ctx, domain.Identity{ID: "theo"}, app.ViewRequest{Agent: app.SummaryAgent("project_maple"), Query: "Maple demo budget", KUser: 10, KCross: 10})
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		for _, f := range append(v.Private, v.Shared...) {
			b.WriteString(f.Value + " ")
		}
		return b.String()
	}
	if got := read(); !strings.Contains(got, "Maple demo is on June 2.") || strings.Contains(got, "221,000") {
		t.Fatalf("theo's summary view: %q", got)
	}
	if _, err := r.app.DeleteFragment(ctx, domain.Identity{ID: "ava"}, ans.Fragments[0].ID); err != nil {
		t.Fatal(err)
	}
	if got := read(); strings.Contains(got, "June 2") {
		t.Fatalf("the summary outlived its original: %q", got)
	}
}
