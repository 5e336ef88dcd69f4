package app_test

import (
	"context"
	"strings"
	"testing"

	"github.com/cmem/cmem/app"
	"github.com/cmem/cmem/domain"
)

// A turn saying what something currently is, in words, supersedes the
// earlier turns of its scope wholly about that thing; a turn that also
// said something else stays (in another sentence or another clause of the
// same one), a restatement of the same version replaces nothing, nor
// does a description without "current".
func TestCurrentWordingSupersedes(t *testing.T) {
	r := twoProjects(t)
	turn(t, r, "ava", "Heron release note: the current family-release scope is billing dates only.")
	turn(t, r, "ava", "Heron: the family-release scope covers billing dates. The lab room is Annex 12.")
	turn(t, r, "ava", "Heron reviewer note: the review scope is the whole packet.")
	turn(t, r, "ava", "Heron recap: the family-release scope is billing dates only; the lab room is Annex 14.")
	turn(t, r, "ava", "Heron: the current family-release scope is meeting-time confirmation only.")
	turn(t, r, "ava", "Heron reviewer note: the review scope is the first chapter.")
	turn(t, r, "ava", "Heron: the current coordination label for the follow-up is bridge-82.")
	turn(t, r, "ava", "Heron reminder: the current label is bridge-82.")
	v, err := r.app.MemoryView(context.Background(), domain.Identity{ID: "ava"}, app.ViewRequest{Agent: app.ScopeAgent("project_heron"), Query: "Heron family-release review scope", KUser: 20, KCross: 20})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, f := range v.Shared {
		b.WriteString(f.Value + " ")
	}
	got := b.String()
	if strings.Contains(got, "release note") {
		t.Errorf("the stale wording is still shown: %q", got)
	}
	for _, want := range []string{"meeting-time confirmation only", "Annex 12", "Annex 14", "whole packet", "first chapter", "for the follow-up"} {
		if !strings.Contains(got, want) {
			t.Errorf("%q is gone from ava's view: %q", want, got)
		}
	}
}
