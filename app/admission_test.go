package app_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/cmem/cmem/app"
	"github.com/cmem/cmem/domain"
	"github.com/cmem/cmem/events"
)

// An admission gate on the shared tier: a candidate reaching θ is written
// with its score; one below is refused with the score and θ in the error;
// both verdicts are in the write's event.
func TestAdmissionGate(t *testing.T) {
	r := newRig(t, nil)
	world(t, r)
	ctx := context.Background()
	cfg := json.RawMessage(`{"threshold": 8, "rubrics": [
		{"name": "accuracy", "description": "correct and relevant", "min": 0, "max": 10},
		{"name": "specificity", "description": "concrete details", "min": 0, "max": 5}]}`)
	if _, err := r.app.SetPolicy(ctx, admin, app.PolicyRequest{Target: "write_shared", Kind: "admission", Config: cfg}); err != nil {
		t.Fatal(err)
	}
	write := func(value string) (app.WriteAnswer, error) {
		return r.app.WriteFragment(ctx, domain.Identity{ID: "alice"}, app.WriteRequest{Agent: "x", Key: "What food is Lyon famous for?",
			Value: value, Tier: events.TierShared})
	}
	w, err := write("Lyon is famous for its bouchons, quenelles and the Halles Paul Bocuse market, open since 1971.")
	if err != nil || len(w.Fragments) != 1 || w.Fragments[0].AdmissionScore == nil || *w.Fragments[0].AdmissionScore < 8 {
		t.Fatalf("a good answer must be admitted with its score: %+v %v", w, err)
	}
	_, err = write("I don't know.")
	if !errors.Is(err, domain.ErrPolicyRefused) || !strings.Contains(err.Error(), "threshold 8.00") || !strings.Contains(err.Error(), "admission score") {
		t.Fatalf("a refusal must be refused by policy with its score and θ: %v", err)
	}
	// Private writes are not gated.
	if _, err := r.app.WriteFragment(ctx, domain.Identity{ID: "alice"}, app.WriteRequest{Agent: "x", Key: "k", Value: "I don't know.", Tier: events.TierPrivate}); err != nil {
		t.Fatal(err)
	}
	var admitted, refused *events.Admission
	for _, e := range r.log.envelopes() {
		pl, err := e.Decode()
		if err != nil {
			t.Fatal(err)
		}
		switch p := pl.(type) {
		case *events.FragmentWritten:
			if p.Tier == events.TierShared {
				admitted = p.Policy.Admission
			}
		case *events.FragmentRejected:
			refused = p.Policy.Admission
		}
	}
	if admitted == nil || refused == nil || admitted.Score < 8 || refused.Score >= 8 || refused.Threshold != 8 || len(refused.Rubrics) != 2 {
		t.Fatalf("events: admitted %+v refused %+v", admitted, refused)
	}
	// Eq. 1 holds on what was recorded.
	var sum float64
	for _, rr := range refused.Rubrics {
		sum += rr.Low + rr.High
	}
	if sum/2 != refused.Score {
		t.Fatalf("recorded score %v is not ½(Σlow+Σhigh) = %v", refused.Score, sum/2)
	}
	// A gate on the private tier, or one whose θ cannot be reached, is refused when set.
	for _, bad := range []app.PolicyRequest{
		{Target: "write_private", Kind: "admission", Config: cfg},
		{Target: "write_shared", Kind: "admission", Config: json.RawMessage(`{"threshold": 99, "rubrics": [{"name": "a", "min": 0, "max": 10}]}`)},
		{Target: "write_shared", Kind: "admission", Config: json.RawMessage(`{"threshold": 1, "rubrics": []}`)},
	} {
		if _, err := r.app.SetPolicy(ctx, admin, bad); !errors.Is(err, domain.ErrInvalid) {
			t.Fatalf("%+v: %v, want invalid", bad, err)
		}
	}
}
