package app_test

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/cmem/cmem/app"
	"github.com/cmem/cmem/domain"
	"github.com/cmem/cmem/embedding/semantic"
	"github.com/cmem/cmem/events"
)

// day is 18:00 on the d-th of March 2024.
func day(d int) time.Time { return time.Date(2024, 3, d, 18, 0, 0, 0, time.UTC) }

// episodeView writes bob's two fragments (the answer on day 1, a
// look-alike on day 2), then three fragments matching bob's question far
// better at `third` (by alice through x, which bob may not invoke,
// unless visible), on a store whose filter is broken, and returns bob's
// view as key=score lines.
func episodeView(t *testing.T, third time.Time, visible bool) []string {
	t.Helper()
	r := newRigOn(t, semantic.Must(), nil, func(d *app.Deps) { d.Store = leakyStore{d.Store} })
	world(t, r)
	ctx := context.Background()
	put := func(user, agent string, res []string, key, value string, at time.Time) {
		t.Helper()
		if _, err := r.app.WriteFragment(ctx, domain.Identity{ID: user}, app.WriteRequest{Agent: agent, Resources: res, Key: key,
			Value: value, Tier: events.TierShared, ObservedAt: at}); err != nil {
			t.Fatal(err)
		}
	}
	put("bob", "y", nil, "Bob: trail notes", "Bob: we walked the ridge path up to the lake", day(1))
	put("bob", "y", nil, "Bob: weekend", "Bob: I want to get outside this weekend", day(2))
	for _, v := range []string{"Bob hiked the Cascade trail", "the trail Bob hiked was steep", "Bob's favourite hike is that trail"} {
		if visible {
			put("bob", "y", nil, "Bob: "+v, "Bob: "+v, third)
		} else {
			put("alice", "x", []string{"rx"}, "Alice: "+v, "Alice: "+v, third)
		}
	}
	v, err := r.app.MemoryView(ctx, domain.Identity{ID: "bob"}, app.ViewRequest{Agent: "y", Query: "Which trail did Bob hike?", KCross: 10})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, f := range v.Shared {
		if f.User != "bob" {
			t.Fatalf("bob read %s's fragment %q", f.User, f.Key)
		}
		out = append(out, fmt.Sprintf("%s=%.6f", f.Key, *f.Score))
	}
	return out
}

// The second stage of a view (word-by-word matching, episodes,
// neighbours) sees only what the reader may see: whether fragments bob may
// not read share an episode with one of his or not, or are observed next
// to one of his or not, changes nothing in his view, even when the store
// returns them. The same fragments readable by bob do change it (so the
// test can see an influence of each term).
func TestRescoringIgnoresWhatTheReaderCannotSee(t *testing.T) {
	next, sameEpisode := day(2).Add(30*time.Second), day(2).Add(app.EpisodeGap-time.Minute)
	for _, c := range []struct {
		what        string
		near, apart time.Time
	}{
		{"in the episode of one of his", day(2), day(3)},
		{"next to one of his", next, sameEpisode},
	} {
		if near, apart := episodeView(t, c.near, false), episodeView(t, c.apart, false); !slices.Equal(near, apart) {
			t.Fatalf("fragments bob may not see, %s, changed his view:\n%v\nagainst\n%v", c.what, near, apart)
		}
		if near, apart := episodeView(t, c.near, true), episodeView(t, c.apart, true); slices.Equal(near, apart) {
			t.Fatalf("readable fragments %s must change his view: %v", c.what, near)
		}
	}
}
