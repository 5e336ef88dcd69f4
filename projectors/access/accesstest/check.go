package accesstest

import (
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/cmem/cmem/projectors/access"
)

// CheckAgainstModel asks g and m the same random questions at random points,
// by revision and by time, and fails t on the first disagreement.
func CheckAgainstModel(t *testing.T, rng *rand.Rand, g *access.Graph, m *Model, u Universe, questions int) {
	t.Helper()
	last := m.Ops[len(m.Ops)-1]
	minAt, maxAt := m.Ops[0].At, m.Ops[0].At
	for _, o := range m.Ops {
		if o.At.Before(minAt) {
			minAt = o.At
		}
		if o.At.After(maxAt) {
			maxAt = o.At
		}
	}
	span := maxAt.Sub(minAt) + 2*time.Minute
	for q := range questions {
		byTime := q%2 == 0
		rev := uint64(rng.IntN(int(last.Rev) + 2))
		at := minAt.Add(-time.Minute + time.Duration(rng.Int64N(int64(span))))
		if q%7 == 0 { // exactly on an op's time: the tie rules matter there
			at = m.Ops[rng.IntN(len(m.Ops))].At
		}
		if q%5 == 1 { // exactly on an expiry, or a nanosecond either side
			if e := m.Ops[rng.IntN(len(m.Ops))].Expires; !e.IsZero() {
				at = e.Add(time.Duration(rng.IntN(3) - 1))
			}
		}
		mq := Q{ByTime: byTime, Rev: rev, At: at}
		p := access.AtRevision(rev)
		switch {
		case byTime:
			p = access.AtTime(at)
		case q%3 == 0: // a revision judged at a wall clock, as enforcement does
			p, mq.Clock = access.Now(rev, at), &at
		}
		user, agent := pick(rng, u.Users), pick(rng, u.Agents)
		if got, want := g.Agents(user, p), m.Neighbours(true, user, u.Agents, mq); !slices.Equal(got, want) {
			t.Fatalf("A(%s) at %v: got %v, want %v", user, p, got, want)
		}
		if got, want := g.Resources(agent, p), m.Neighbours(false, agent, u.Resources, mq); !slices.Equal(got, want) {
			t.Fatalf("R(%s) at %v: got %v, want %v", agent, p, got, want)
		}
		agents, resources := Subset(rng, u.Agents, 3), Subset(rng, u.Resources, 3)
		got := g.Admissible(user, agent, access.Provenance{Agents: agents, Resources: resources}, p)
		if want := m.Admissible(user, agent, agents, resources, mq); got != want {
			t.Fatalf("admissible(%s via %s, agents %v, resources %v) at %v: got %v, want %v", user, agent, agents, resources, p, got, want)
		}
		checkExpiries(t, g, m, u, user, p, mq)
	}
}

// checkExpiries compares the expiries the access answer shows with the
// model's.
func checkExpiries(t *testing.T, g *access.Graph, m *Model, u Universe, user string, p access.Point, mq Q) {
	t.Helper()
	for _, aa := range g.Access(user, p) {
		want := m.Expiry(true, user, aa.ID, mq)
		if got := aa.ExpiresAt; want.IsZero() != (got == nil) || got != nil && !got.Equal(want) {
			t.Fatalf("expiry of %s -> %s at %v: got %v, want %v", user, aa.ID, p, got, want)
		}
		for _, r := range u.Resources {
			want := m.Expiry(false, aa.ID, r, mq)
			if got, ok := aa.ResourceExpiry[r]; ok != !want.IsZero() || ok && !got.Equal(want) {
				t.Fatalf("expiry of %s -> %s at %v: got %v (%v), want %v", aa.ID, r, p, got, ok, want)
			}
		}
	}
}
