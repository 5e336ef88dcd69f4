package access_test

import (
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/projectors/access"
	"github.com/cmem/cmem/projectors/access/accesstest"
)

func record(t testing.TB, rev uint64, at time.Time, p events.Payload) events.Record {
	t.Helper()
	e, err := events.New(events.Meta{Source: "test", Actor: "admin", Time: at}, p)
	if err != nil {
		t.Fatal(err)
	}
	return events.Record{Envelope: e, Revision: rev}
}

func TestGraphMatchesReferenceModel(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	u := accesstest.NewUniverse(20, 8, 12)
	ops := accesstest.RandomOps(rng, u, 10_000, 1, time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	g := access.NewGraph()
	for _, o := range ops {
		if err := g.Apply(record(t, o.Rev, o.At, o.Payload())); err != nil {
			t.Fatal(err)
		}
	}
	accesstest.CheckAgainstModel(t, rng, g, accesstest.NewModel(ops), u, 3_000)
}

func TestApplyIsIdempotentByRevision(t *testing.T) {
	g := access.NewGraph()
	at := time.Now()
	if err := g.Apply(record(t, 1, at, &events.UserAgentGranted{User: "u", Agent: "a"})); err != nil {
		t.Fatal(err)
	}
	if err := g.Apply(record(t, 2, at, &events.UserAgentRevoked{User: "u", Agent: "a"})); err != nil {
		t.Fatal(err)
	}
	// A redelivered grant at an old revision must not resurrect the edge.
	if err := g.Apply(record(t, 1, at, &events.UserAgentGranted{User: "u", Agent: "a"})); err != nil {
		t.Fatal(err)
	}
	if got := g.Agents("u", access.Latest()); len(got) != 0 {
		t.Fatalf("A(u) = %v after revoke, want empty", got)
	}
	if got := g.Agents("u", access.AtRevision(1)); !slices.Equal(got, []string{"a"}) {
		t.Fatalf("A(u) at revision 1 = %v, want [a]", got)
	}
}

func TestRevokeHidesAndRegrantShows(t *testing.T) {
	g := access.NewGraph()
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	steps := []events.Payload{
		&events.UserAgentGranted{User: "u", Agent: "a"},
		&events.AgentResourceGranted{Agent: "a", Resource: "r"},
		&events.AgentResourceRevoked{Agent: "a", Resource: "r"},
		&events.AgentResourceGranted{Agent: "a", Resource: "r"},
	}
	for i, p := range steps {
		if err := g.Apply(record(t, uint64(i+1), t0.Add(time.Duration(i)*time.Hour), p)); err != nil {
			t.Fatal(err)
		}
	}
	prov := access.Provenance{Agents: []string{"a"}, Resources: []string{"r"}}
	want := []bool{false, true, false, true} // at revisions 1..4
	for i, w := range want {
		rev := uint64(i + 1)
		if got := g.Admissible("u", "a", prov, access.AtRevision(rev)); got != w {
			t.Errorf("revision %d: admissible = %v, want %v", rev, got, w)
		}
		if got := g.Admissible("u", "a", prov, access.AtTime(t0.Add(time.Duration(i)*time.Hour))); got != w {
			t.Errorf("hour %d: admissible = %v, want %v", i, got, w)
		}
	}
	if g.Admissible("v", "a", prov, access.Latest()) {
		t.Error("a user without the agent edge must not see the fragment")
	}
}

func TestUserTokensAndDoubleRegistration(t *testing.T) {
	g := access.NewGraph()
	sum := "ab" // hex sums are opaque to the graph
	if err := g.Apply(record(t, 1, time.Now(), &events.UserRegistered{ID: "u", Role: "user", TokenSHA256: sum})); err != nil {
		t.Fatal(err)
	}
	if u, ok := g.UserByToken(sum); !ok || u.ID != "u" || u.Registered.Revision != 1 {
		t.Fatalf("UserByToken = %+v, %v", u, ok)
	}
	err := g.Apply(record(t, 2, time.Now(), &events.UserRegistered{ID: "u", Role: "admin", TokenSHA256: "cd"}))
	if err == nil {
		t.Fatal("second registration of u accepted")
	}
	if u, _ := g.User("u"); u.Role != "user" {
		t.Fatalf("second registration changed the user: %+v", u)
	}
	if g.Revision() != 2 {
		t.Fatalf("revision = %d, want 2 (a rejected event still advances the projection)", g.Revision())
	}
}
