package app_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cmem/cmem/app"
	"github.com/cmem/cmem/domain"
	"github.com/cmem/cmem/embedding/semantic"
	"github.com/cmem/cmem/events"
)

// nearView writes bob's turn that matches his question (a question
// itself) at day(1), then
// the turn after it (a reason that shares none of the question's words)
// at `at`, by `by` ("bob" through y; "alice" through x, which bob may not
// invoke; "alice-private", alice's own tier through y; alice's NearMax
// times, a second apart, so that they would fill the top 2 if read), and
// returns bob's view of the question (2 of each tier) as key=score lines.
func nearView(t *testing.T, by string, at time.Time) []string {
	t.Helper()
	return nearViewAfter(t, "Alice: Bob, why did you start running in the spring?", by, at)
}

// nearViewAfter is nearView with bob's matching turn saying seed.
func nearViewAfter(t *testing.T, seed, by string, at time.Time) []string {
	t.Helper()
	r := newRigOn(t, semantic.Must(), nil)
	world(t, r)
	ctx := context.Background()
	put := func(user, agent, tier string, res []string, key, value string, at time.Time) {
		t.Helper()
		if _, err := r.app.WriteFragment(ctx, domain.Identity{ID: user}, app.WriteRequest{Agent: agent, Resources: res, Key: key,
			Value: value, Tier: tier, ObservedAt: at}); err != nil {
			t.Fatal(err)
		}
	}
	put("bob", "y", events.TierShared, nil, "bob started running", seed, day(1))
	put("bob", "y", events.TierShared, nil, "bob's weekend", "Bob: I want to get outside this weekend", day(2))
	const key, value = "the reason", "it clears my head after long days at the office"
	switch by {
	case "bob":
		put("bob", "y", events.TierShared, nil, key, value, at)
	case "alice": // as many as the view reads after a hit, to fill the top k
		for i := range app.NearMax {
			put("alice", "x", events.TierShared, []string{"rx"}, fmt.Sprint(key, i), value, at.Add(time.Duration(i)*time.Second))
		}
	case "alice-private":
		for i := range app.NearMax {
			put("alice", "y", events.TierPrivate, nil, fmt.Sprint(key, i), value, at.Add(time.Duration(i)*time.Second))
		}
	}
	floor := float32(0.4) // the reason shares no word with the question: alone, it is below it
	v, err := r.app.MemoryView(ctx, domain.Identity{ID: "bob"}, app.ViewRequest{Agent: "y", Query: "Why did Bob start running?", KUser: 2, KCross: 2, MinScore: &floor})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, f := range slices.Concat(v.Private, v.Shared) {
		if f.User != "bob" {
			t.Fatalf("bob read %s's fragment %q (%s tier) as the neighbour of his own", f.User, f.Key, f.Tier)
		}
		out = append(out, fmt.Sprintf("%s=%.6f", f.Key, *f.Score))
	}
	return out
}

// A view reads the fragments observed next to its best hits even when the
// store did not return them (the turn after the one the question matches),
// and only those the reader may read: a fragment of another provenance or
// another user's private tier, observed next to bob's hit, is never
// returned and leaves his view exactly as it is when observed far away.
// The same fragment readable by bob is returned only when it is observed
// next to the hit, so the test sees the read path at work.
func TestNeighboursIgnoreWhatTheReaderCannotSee(t *testing.T) {
	next, far := day(1).Add(30*time.Second), day(1).Add(2*app.EpisodeGap)
	near, apart := nearView(t, "bob", next), nearView(t, "bob", far)
	if !slices.ContainsFunc(near, func(s string) bool { return strings.HasPrefix(s, "the reason=") }) {
		t.Fatalf("the turn after bob's hit is not in his view: %v", near)
	}
	if slices.ContainsFunc(apart, func(s string) bool { return strings.HasPrefix(s, "the reason=") }) {
		t.Fatalf("the reason reached bob's view on its own words, so this test cannot see the neighbours' read path: %v", apart)
	}
	for _, by := range []string{"alice", "alice-private"} {
		if near, apart := nearView(t, by, next), nearView(t, by, far); !slices.Equal(near, apart) {
			t.Fatalf("a fragment bob may not read (%s), observed next to his hit, changed his view:\n%v\nagainst\n%v", by, near, apart)
		}
	}
}

// Only a turn that asks lifts the turn after it: after a statement, the
// next turn is another statement, not its answer, and stays where its own
// words put it (below the floor here).
func TestNeighboursFollowOnlyAQuestion(t *testing.T) {
	near := nearViewAfter(t, "Bob: I started running in the spring", "bob", day(1).Add(30*time.Second))
	if slices.ContainsFunc(near, func(s string) bool { return strings.HasPrefix(s, "the reason=") }) {
		t.Fatalf("the turn after a statement was lifted as its answer: %v", near)
	}
}
