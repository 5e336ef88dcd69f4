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
	r := newRig(t, nil)
	registerUsers(t, r, "ava")
	if _, err := r.app.ImportRelationships(ctx, admin, app.ImportRequest{Schema: officeSchema, Relationships: []app.Relationship{
		{"type": "project_member", "project_id": "heron", "principal_id": "ava"},
	}}); err != nil {
		t.Fatal(err)
	}
	ava := domain.Identity{ID: "ava"}
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
