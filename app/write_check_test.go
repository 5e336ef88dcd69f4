package app_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/cmem/cmem/app"
	"github.com/cmem/cmem/domain"
	"github.com/cmem/cmem/events"
)

// A key that is only an id, an empty value or an oversize one is refused
// as invalid input (400), and nothing is written.
func TestWriteRefusesIDKeysAndEmptyOrOversizeValues(t *testing.T) {
	r := newRig(t, nil)
	world(t, r)
	ctx := context.Background()
	before, _ := r.log.requests()
	for _, c := range []struct{ key, value string }{
		{"0f8fad5b-d9cb-469f-a165-70867728950e", "a value"},
		{"9f86d081884c7d659a2feaa0c55ad015", "a value"},
		{"  42 ", "a value"},
		{"D1:3", "a value"},
		{"2024-05-01", "a value"},
		{"lyon", ""},
		{"lyon", "   \n"},
		{"lyon", strings.Repeat("x", 262145)},
	} {
		_, err := r.app.WriteFragment(ctx, domain.Identity{ID: "alice"}, app.WriteRequest{Agent: "x", Key: c.key, Value: c.value, Tier: events.TierShared})
		if !errors.Is(err, domain.ErrInvalid) {
			t.Errorf("key %q, value of %d bytes: err = %v, want ErrInvalid", c.key, len(c.value), err)
		}
	}
	if after, _ := r.log.requests(); after != before {
		t.Fatalf("refused writes appended %d events", after-before)
	}
	for _, key := range []string{"cafe", "facade", "lyon 2024", "room 101", "Q3 revenue", "bed"} {
		if _, err := r.app.WriteFragment(ctx, domain.Identity{ID: "alice"}, app.WriteRequest{Agent: "x", Key: key, Value: "a value", Tier: events.TierShared}); err != nil {
			t.Errorf("key %q refused: %v", key, err)
		}
	}
}
