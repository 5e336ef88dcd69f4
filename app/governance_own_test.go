package app_test

import (
	"context"
	"slices"
	"testing"

	"github.com/cmem/cmem/app"
)

// A speaker without authority over a scope who asks to delete a value
// erases only what they said themselves: their own turn holding it goes,
// the steward's turn holding the same value stays. This fails when the
// author check is removed (the steward's words would be erased by someone
// with no authority over them).
func TestSpokenDeletionWithoutAuthorityErasesOnlyOwnWords(t *testing.T) {
	ctx := context.Background()
	r, ava := heronMember(t)
	registerUsers(t, r, "noah")
	if _, err := r.app.ImportRelationships(ctx, admin, app.ImportRequest{Schema: officeSchema, Relationships: []app.Relationship{},
		Principals: []string{"noah"}}); err != nil {
		t.Fatal(err)
	}
	avas := turn(t, r, ava.ID, "Heron staging token is hr_stg_7Q2M until Friday.")
	noahs := turn(t, r, "noah", "Heron staging token hr_stg_7Q2M was pasted in my notes too.")
	if len(avas.Fragments) != 1 || len(noahs.Fragments) != 1 {
		t.Fatalf("turns wrote %d and %d fragments, want 1 each", len(avas.Fragments), len(noahs.Fragments))
	}
	acts := turn(t, r, "noah", "Please delete hr_stg_7Q2M from Heron memory.").Governance
	var erased []string
	for _, act := range acts {
		if act.Applied {
			erased = append(erased, act.Targets...)
		}
	}
	if !slices.Contains(erased, noahs.Fragments[0].ID) {
		t.Errorf("noah's own words were not erased: %+v", acts)
	}
	if slices.Contains(erased, avas.Fragments[0].ID) {
		t.Errorf("noah, without authority, erased ava's words: %+v", acts)
	}
}

// "Stop recalling" a value is a request to erase it: a steward's request
// in those words erases what holds it.
func TestStopRecallingErases(t *testing.T) {
	r, ava := heronMember(t)
	first := turn(t, r, ava.ID, "Heron portal override is hr_ovr_31A8 through May 24.")
	acts := turn(t, r, ava.ID, "Please retire and stop recalling the old Heron override hr_ovr_31A8 now that the new token is active.").Governance
	erased := false
	for _, act := range acts {
		erased = erased || (act.Applied && slices.Contains(act.Targets, first.Fragments[0].ID))
	}
	if !erased {
		t.Fatalf("the request did not erase the fragment holding the value: %+v", acts)
	}
}
