package app_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"testing"

	"github.com/cmem/cmem/app"
	"github.com/cmem/cmem/domain"
	"github.com/cmem/cmem/events"
)

// A value erased in conversation stays erased across a restart: the log
// holds its hash only (a ValuesErased), and an App rebuilt from that log
// redacts a later turn restating it, as the first one did.
func TestSpokenErasureSurvivesRebuild(t *testing.T) {
	ctx := context.Background()
	r, ava := heronMember(t)
	const secret = "hx_stg_7Q4M-H2LA"
	say := func(a *app.App, text string) app.TurnAnswer {
		t.Helper()
		ans, err := a.IngestTurn(ctx, ava, app.TurnRequest{Text: text})
		if err != nil {
			t.Fatal(err)
		}
		return ans
	}
	say(r.app, "The Heron staging token is "+secret+" for this sprint.")
	say(r.app, "Please delete the Heron staging token "+secret+" from memory.")

	sum := sha256.Sum256([]byte(strings.ToLower(secret)))
	var recorded bool
	for _, e := range r.log.envelopes() {
		if e.Type != events.TypeValuesErased {
			continue
		}
		if strings.Contains(strings.ToLower(string(e.Data)), strings.ToLower(secret)) {
			t.Fatalf("the erasure event holds the value itself: %s", e.Data)
		}
		recorded = recorded || strings.Contains(string(e.Data), hex.EncodeToString(sum[:]))
	}
	if !recorded {
		t.Fatal("no ValuesErased holds the erased value's hash")
	}

	// A new App on a new registry, fed the same log: nothing in process
	// memory carries over.
	r2 := newRig(t, nil)
	for _, e := range r.log.envelopes() {
		if _, err := r2.log.Append(ctx, e, false); err != nil {
			t.Fatal(err)
		}
	}
	ans := say(r2.app, "Reminder: the Heron staging token is "+secret+" until Friday.")
	if len(ans.Fragments) != 1 {
		t.Fatalf("the restated turn wrote %d fragments, want 1", len(ans.Fragments))
	}
	if v := ans.Fragments[0].Value; strings.Contains(strings.ToLower(v), strings.ToLower(secret)) || !strings.Contains(v, "[erased]") {
		t.Fatalf("after a rebuild the erased value was written again: %q", v)
	}
}

// A value restated into the speaker's own record needs the value's owning
// scope too — with a delegate reading that record, and with no one else
// reading it (the speaker would otherwise read back from their own record
// a value they may not read where it belongs).
func TestRestatedValueInOwnRecordWithAReader(t *testing.T) {
	ctx := context.Background()
	r := newRig(t, nil)
	registerUsers(t, r, "ava", "marco", "erin", "noah")
	schema := app.RelationshipSchema{Types: map[string]app.RelationshipRule{
		"project_member":     {Subject: "principal_id", Scope: "project_{project_id}", Read: app.ReadFull, Steward: true},
		"executive_delegate": {Subject: "principal_id", Scope: "record_{for_principal_id}", Read: app.ReadFull},
	}, Self: "record_{principal_id}"}
	if _, err := r.app.ImportRelationships(ctx, admin, app.ImportRequest{Schema: schema, Relationships: []app.Relationship{
		{"type": "project_member", "project_id": "heron", "principal_id": "ava"},
		{"type": "executive_delegate", "principal_id": "erin", "for_principal_id": "marco"},
	}, Principals: []string{"noah", "marco"}}); err != nil {
		t.Fatal(err)
	}
	turn := func(who, text string) []string {
		t.Helper()
		ans, err := r.app.IngestTurn(ctx, domain.Identity{ID: who}, app.TurnRequest{Text: text})
		if err != nil {
			t.Fatal(err)
		}
		return ans.Decision.Scopes
	}
	turn("ava", "Heron private support amount is 3,330 USD this term.")
	if got := turn("marco", "Note for the board pack: 3,330 USD."); len(got) != 2 {
		t.Fatalf("restated into a record a delegate reads: scopes %v", got)
	}
	if got := turn("noah", "Note for myself: 3,330 USD."); len(got) != 2 || got[0] != "project_heron" || got[1] != "record_noah" {
		t.Fatalf("restated into a record only its owner reads: scopes %v, want the owning project's too", got)
	}
	turn("noah", "Note for myself: the printer token is prt_4417x.")
	if got := turn("noah", "Reminder: prt_4417x."); len(got) != 1 || got[0] != "record_noah" {
		t.Fatalf("a value first said in the speaker's own record: scopes %v, want record_noah alone", got)
	}
}

// A steward who states that a value "is deleted from memory" (a
// confirmation, not an imperative) erases what holds it, as a request
// would; a sentence that only mentions deleted things erases nothing.
func TestStatedDeletionErases(t *testing.T) {
	ctx := context.Background()
	r, ava := heronMember(t)
	say := func(text string) app.TurnAnswer {
		t.Helper()
		ans, err := r.app.IngestTurn(ctx, ava, app.TurnRequest{Text: text})
		if err != nil {
			t.Fatal(err)
		}
		return ans
	}
	first := say("Heron's internal label is 'granite ledger review' in the restricted notes.")
	if len(first.Fragments) != 1 {
		t.Fatalf("the first turn wrote %d fragments, want 1", len(first.Fragments))
	}
	if acts := say("The deleted details should not re-enter active Heron memory.").Governance; len(acts) != 0 {
		t.Fatalf("a sentence mentioning deleted things acted: %+v", acts)
	}
	acts := say("Confirmed. The internal label 'granite ledger review' is deleted from active Heron memory.").Governance
	erased := false
	for _, act := range acts {
		for _, id := range act.Targets {
			erased = erased || (act.Applied && id == first.Fragments[0].ID)
		}
	}
	if !erased {
		t.Fatalf("the stated deletion did not erase the fragment holding the value: %+v", acts)
	}
}

// heronMember is a rig where ava is a member (a steward) of project heron.
func heronMember(t *testing.T) (*rig, domain.Identity) {
	t.Helper()
	r := newRig(t, nil)
	registerUsers(t, r, "ava")
	if _, err := r.app.ImportRelationships(context.Background(), admin, app.ImportRequest{Schema: officeSchema, Relationships: []app.Relationship{
		{"type": "project_member", "project_id": "heron", "principal_id": "ava"},
	}}); err != nil {
		t.Fatal(err)
	}
	return r, domain.Identity{ID: "ava"}
}
