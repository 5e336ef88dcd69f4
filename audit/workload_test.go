package audit_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/cmem/cmem/events"
)

// workload is a random but reproducible log: registrations, grants and
// revokes of both graphs, fragment writes, memory reads (honest ones, and
// stale, future-graph, cross-user and dangling ones) and query pipeline
// steps. Event times mostly grow one second per event, with backdated
// events and ties so that (time, revision) order matters.
type workload struct {
	envs                     []events.Envelope
	users, agents, resources []string
	fragments                []string // every id written, and a few only ever read
	times                    []time.Time
	t0                       time.Time
	changes                  []edgeChange
}

// edgeChange is a grant or revoke in the workload, for questions asked
// exactly at its time.
type edgeChange struct {
	at        time.Time
	userAgent bool
	from, to  string
}

var workloadT0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

type workloadGen struct {
	*workload
	rng      *rand.Rand
	now      time.Time
	private  map[string][]string // user -> private fragment ids
	shared   []string
	current  map[string]string // user -> open query
	queries  int
	nextFrag int
	// expiring is, per edge whose newest change is a grant with an
	// expiry, that grant's revision and expiry.
	expiring map[edgeChange]expiringGrant
	expiries []time.Time // every expiry granted, in order
	at       *time.Time  // the next event's time, when set
}

type expiringGrant struct {
	rev uint64
	at  time.Time
}

func newWorkload(seed uint64, users, agents, resources, ops int) *workload {
	g := &workloadGen{workload: &workload{t0: workloadT0}, rng: rand.New(rand.NewPCG(seed, seed+1)),
		now: workloadT0, private: map[string][]string{}, current: map[string]string{}, expiring: map[edgeChange]expiringGrant{}}
	for i := range users {
		g.users = append(g.users, fmt.Sprintf("u%d", i))
		g.emit(&events.UserRegistered{ID: g.users[i], Role: events.RoleUser, TokenSHA256: fmt.Sprintf("%064x", i)})
	}
	for i := range agents {
		g.agents = append(g.agents, fmt.Sprintf("a%d", i))
		g.emit(&events.AgentRegistered{ID: g.agents[i], Description: "agent"})
	}
	for i := range resources {
		g.resources = append(g.resources, fmt.Sprintf("r%d", i))
		g.emit(&events.ResourceRegistered{ID: g.resources[i], Kind: "calculator", Description: "resource"})
	}
	for range ops {
		g.step()
	}
	return g.workload
}

func (g *workloadGen) pick(s []string) string { return s[g.rng.IntN(len(s))] }

func (g *workloadGen) subset(s []string, lo, hi int) []string {
	n := lo + g.rng.IntN(hi-lo+1)
	out := []string{}
	for _, i := range g.rng.Perm(len(s))[:min(n, len(s))] {
		out = append(out, s[i])
	}
	slices.Sort(out)
	return out
}

// emit appends an event at the next time: usually a second later, 5% of
// the time backdated by up to a minute, 3% at the same time as the last.
func (g *workloadGen) emit(p events.Payload) {
	g.now = g.now.Add(time.Second)
	at := g.now
	switch r := g.rng.IntN(100); {
	case g.at != nil:
		at, g.at = *g.at, nil
	case r < 5:
		at = at.Add(-time.Duration(g.rng.Int64N(int64(time.Minute))))
	case r < 8 && len(g.times) > 0:
		at = g.times[len(g.times)-1]
	}
	e, err := events.New(events.Meta{Source: "workload", Actor: "admin", Time: at}, p)
	if err != nil {
		panic(err)
	}
	g.envs = append(g.envs, e)
	g.times = append(g.times, at)
}

// revision is what the next event's revision will be on a fresh log.
func (g *workloadGen) revision() uint64 { return uint64(len(g.envs) + 1) }

func (g *workloadGen) step() {
	u, a := g.pick(g.users), g.pick(g.agents)
	switch r := g.rng.IntN(100); {
	case r < 20:
		g.edgeStep(true, u, a)
	case r < 35:
		g.edgeStep(false, a, g.pick(g.resources))
	case r < 55:
		g.write(u)
	case r < 80:
		g.read(u, a)
	default:
		g.queryStep(u, a)
	}
}

// edgeStep grants (40% of grants with an expiry 1-60 s after the event's
// time), revokes, or, when the edge's newest change is a grant with an
// expiry, now and then appends its expired event as an expirer would.
func (g *workloadGen) edgeStep(userAgent bool, from, to string) {
	k := edgeChange{userAgent: userAgent, from: from, to: to}
	rev := g.revision()
	if e, ok := g.expiring[k]; ok && g.rng.IntN(3) == 0 {
		delete(g.expiring, k)
		if userAgent {
			g.emit(&events.UserAgentExpired{User: from, Agent: to, GrantRevision: e.rev, ExpiresAt: e.at})
		} else {
			g.emit(&events.AgentResourceExpired{Agent: from, Resource: to, GrantRevision: e.rev, ExpiresAt: e.at})
		}
		return
	}
	delete(g.expiring, k)
	defer g.noteChange(userAgent, from, to)
	if g.rng.IntN(100) >= 65 {
		if userAgent {
			g.emit(&events.UserAgentRevoked{User: from, Agent: to})
		} else {
			g.emit(&events.AgentResourceRevoked{Agent: from, Resource: to})
		}
		return
	}
	var exp *time.Time
	if g.rng.IntN(100) < 40 {
		t := g.now.Add(time.Second + time.Duration(g.rng.Int64N(int64(time.Minute))))
		exp = &t
		g.expiring[k] = expiringGrant{rev, t}
		g.expiries = append(g.expiries, t)
		// questions asked exactly at the expiry
		g.changes = append(g.changes, edgeChange{at: t, userAgent: userAgent, from: from, to: to})
	}
	if userAgent {
		g.emit(&events.UserAgentGranted{User: from, Agent: to, ExpiresAt: exp})
	} else {
		g.emit(&events.AgentResourceGranted{Agent: from, Resource: to, ExpiresAt: exp})
	}
}

func (g *workloadGen) noteChange(userAgent bool, from, to string) {
	g.changes = append(g.changes, edgeChange{at: g.times[len(g.times)-1], userAgent: userAgent, from: from, to: to})
}

func (g *workloadGen) queryOf(u string) string {
	if g.rng.IntN(2) == 0 {
		return g.current[u]
	}
	return ""
}

func (g *workloadGen) write(u string) {
	id := fmt.Sprintf("f%05d", g.nextFrag)
	g.nextFrag++
	tier := events.TierShared
	if g.rng.IntN(100) < 40 {
		tier = events.TierPrivate
		g.private[u] = append(g.private[u], id)
	} else {
		g.shared = append(g.shared, id)
	}
	g.fragments = append(g.fragments, id)
	g.emit(&events.FragmentWritten{ID: id, Key: "k " + id, Value: "v", Tier: tier, User: u,
		Agents: g.subset(g.agents, 1, 3), Resources: g.subset(g.resources, 0, 2), CreatedAt: g.now,
		QueryID: g.queryOf(u), Provenance: events.ProvenanceTransitive, Policy: events.PolicyTrace{Kind: "simple", Scope: "global"}})
}

// read serves u through a: mostly the current graph, some stale or from
// the future; fragments from u's private tier, the shared tier, another
// user's private tier, and now and then an id nobody wrote.
func (g *workloadGen) read(u, a string) {
	rev := g.revision()
	graphRev := rev - 1
	switch r := g.rng.IntN(100); {
	case r < 15:
		graphRev = g.rng.Uint64N(rev)
	case r < 20:
		graphRev = rev + g.rng.Uint64N(3)
	}
	private := g.subset(g.private[u], 0, 2)
	shared := g.subset(g.shared, 0, 3)
	if other := g.pick(g.users); other != u && len(g.private[other]) > 0 && g.rng.IntN(10) == 0 {
		shared = appendNew(shared, g.pick(g.private[other]))
	}
	if g.rng.IntN(50) == 0 {
		dangling := fmt.Sprintf("f%05d", g.nextFrag+1+g.rng.IntN(3)) // written later, or never
		shared = appendNew(shared, dangling)
		g.fragments = appendNew(g.fragments, dangling)
	}
	if n := len(g.expiries); n > 0 && g.rng.IntN(8) == 0 { // judged exactly at an expiry, or a nanosecond before
		at := g.expiries[n-1-g.rng.IntN(min(n, 10))].Add(-time.Duration(g.rng.IntN(2)))
		g.at = &at
	}
	g.emit(&events.MemoryRead{User: u, Agent: a, Query: "q", QueryID: g.queryOf(u), Private: private, Shared: shared,
		GraphRevision: graphRev, KUser: 2, KCross: 3, Policy: events.PolicyTrace{Kind: "simple", Scope: "global"}})
}

func (g *workloadGen) queryStep(u, a string) {
	q := g.current[u]
	if q == "" || g.rng.IntN(100) < 25 {
		g.queries++
		q = fmt.Sprintf("q%05d", g.queries)
		g.current[u] = q
		g.emit(&events.QuerySubmitted{ID: q, User: u, Text: "question", Channel: "http"})
		return
	}
	round := 1 + g.rng.IntN(3)
	switch r := g.rng.IntN(100); {
	case r < 35:
		g.emit(&events.AgentSelected{QueryID: q, User: u, Round: round, Agent: a, Subquery: "s", Offered: []string{a}})
	case r < 65:
		g.emit(&events.ResourceCalled{QueryID: q, User: u, Round: round, Agent: a, Resource: g.pick(g.resources),
			Arguments: map[string]any{"x": 1}, DurationMS: 1})
	case r < 85:
		g.emit(&events.AgentResponded{QueryID: q, User: u, Round: round, Agent: a, Subquery: "s", Response: "r",
			Resources: []string{}, FragmentsRead: []string{}, FragmentsWritten: []string{}})
	case r < 95:
		g.emit(&events.QueryAnswered{QueryID: q, User: u, Answer: "a", Rounds: round, Agents: []string{a},
			FragmentsRead: []string{}, FragmentsWritten: []string{}})
		delete(g.current, u)
	default:
		g.emit(&events.QueryFailed{QueryID: q, User: u, Stage: "agent", Reason: "boom"})
		delete(g.current, u)
	}
}

func appendNew(s []string, id string) []string {
	if slices.Contains(s, id) {
		return s
	}
	return append(s, id)
}
