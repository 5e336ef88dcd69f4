package accesstest

import (
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/cmem/cmem/access"
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
		p := access.AtRevision(rev)
		if byTime {
			p = access.AtTime(at)
		}
		user, agent := pick(rng, u.Users), pick(rng, u.Agents)
		if got, want := g.Agents(user, p), m.Neighbours(true, user, u.Agents, byTime, rev, at); !slices.Equal(got, want) {
			t.Fatalf("A(%s) at %v: got %v, want %v", user, p, got, want)
		}
		if got, want := g.Resources(agent, p), m.Neighbours(false, agent, u.Resources, byTime, rev, at); !slices.Equal(got, want) {
			t.Fatalf("R(%s) at %v: got %v, want %v", agent, p, got, want)
		}
		agents, resources := Subset(rng, u.Agents, 3), Subset(rng, u.Resources, 3)
		got := g.Admissible(user, agent, access.Provenance{Agents: agents, Resources: resources}, p)
		if want := m.Admissible(user, agent, agents, resources, byTime, rev, at); got != want {
			t.Fatalf("admissible(%s via %s, agents %v, resources %v) at %v: got %v, want %v", user, agent, agents, resources, p, got, want)
		}
	}
}
