package app_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/cmem/cmem/app"
	"github.com/cmem/cmem/domain"
)

// A class reader (IT "credentials only") reads the credential sentences of
// the scope and nothing else of it: not the case's substance, not a
// credential said with a grade; a principal without the relationship
// cannot use the class agent; deleting the original erases the copy.
func TestClassReadHoldsOnlyItsClass(t *testing.T) {
	r := newRig(t, nil)
	ctx := context.Background()
	registerUsers(t, r, "stu", "it", "other")
	schema := app.RelationshipSchema{Types: map[string]app.RelationshipRule{
		"case_subject": {Subject: "principal_id", Scope: "case_{case_id}", Read: app.ReadFull, Steward: true},
		"it_support": {Subject: "principal_id", Scope: "case_{case_id}", Read: app.ReadFull, LimitedBy: "access_scope",
			LimitedTo: map[string]string{"credentials_only": "credentials"}},
	}, Self: "record_{principal_id}"}
	if _, err := r.app.ImportRelationships(ctx, admin, app.ImportRequest{Schema: schema, Relationships: []app.Relationship{
		{"type": "case_subject", "principal_id": "stu", "case_id": "appeal"},
		{"type": "it_support", "principal_id": "it", "case_id": "appeal", "access_scope": "credentials_only"},
	}, Principals: []string{"other"}}); err != nil {
		t.Fatal(err)
	}
	ans := turn(t, r, "stu", "The appeal portal token is apl_TMP_4Q7L until May 20. The appeal hinges on my probation hearing. The appeal grades token is apl_GR_9K.")
	read := func(user string) (string, error) {
		v, err := r.app.MemoryView(ctx, domain.Identity{ID: user}, app.ViewRequest{Agent: app.ClassAgent("case_appeal", "credentials"), Query: "appeal token", KUser: 10, KCross: 10})
		if err != nil {
			return "", err
		}
		var b strings.Builder
		for _, f := range append(v.Private, v.Shared...) {
			b.WriteString(f.Value + " ")
		}
		return b.String(), nil
	}
	got, err := read("it")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(got, "apl_TMP_4Q7L") || strings.Contains(got, "probation") || strings.Contains(got, "apl_GR_9K") {
		t.Fatalf("the class reader's view: %q", got)
	}
	if _, err := read("other"); !errors.Is(err, domain.ErrForbidden) {
		t.Errorf("a principal without the relationship reading the class agent: %v, want forbidden", err)
	}
	if _, err := r.app.DeleteFragment(ctx, domain.Identity{ID: "stu"}, ans.Fragments[0].ID); err != nil {
		t.Fatal(err)
	}
	if got, _ := read("it"); strings.Contains(got, "apl_TMP_4Q7L") {
		t.Fatalf("the class read outlived its original: %q", got)
	}
}
