package audittest

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/cmem/cmem/events"
)

// Workload is a random but reproducible log: registrations, grants and
// revokes of both graphs, fragment writes, memory reads (honest ones, and
// stale, future-graph, cross-user and dangling ones) and query pipeline
// steps. Event times mostly grow one second per event, with backdated
// events and ties so that (time, revision) order matters.
//
// The same seed gives the same log, so a failure names its seed and
// reproduces.
type Workload struct {
	// Envs is the log, in order: on a fresh log Envs[i] is revision i+1.
	Envs []events.Envelope
	// Users, Agents and Resources are the ids registered.
	Users, Agents, Resources []string
	// Fragments is every fragment id written, and a few only ever read.
	Fragments []string
	// Delivered is every query id delivered.
	Delivered []string
	// Times is each event's time (Envs[i].Time), and T0 where they start.
	Times   []time.Time
	T0      time.Time
	changes []edgeChange
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
	*Workload
	rng      *rand.Rand
	now      time.Time
	private  map[string][]string // user -> private fragment ids
	shared   []string
	current  map[string]string  // user -> open query
	edges    map[[2]string]bool // (user, agent) and (agent, resource) granted now
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

// NewWorkload generates ops random steps over the given numbers of users,
// agents and resources, after registering them all.
func NewWorkload(seed uint64, users, agents, resources, ops int) *Workload {
	g := &workloadGen{Workload: &Workload{T0: workloadT0}, rng: rand.New(rand.NewPCG(seed, seed+1)),
		now: workloadT0, private: map[string][]string{}, current: map[string]string{},
		edges: map[[2]string]bool{}, expiring: map[edgeChange]expiringGrant{}}
	for i := range users {
		g.Users = append(g.Users, fmt.Sprintf("u%d", i))
		g.emit(&events.UserRegistered{ID: g.Users[i], Role: events.RoleUser, TokenSHA256: fmt.Sprintf("%064x", i)})
	}
	for i := range agents {
		g.Agents = append(g.Agents, fmt.Sprintf("a%d", i))
		g.emit(&events.AgentRegistered{ID: g.Agents[i], Description: "agent"})
	}
	for i := range resources {
		g.Resources = append(g.Resources, fmt.Sprintf("r%d", i))
		g.emit(&events.ResourceRegistered{ID: g.Resources[i], Kind: "calculator", Description: "resource"})
	}
	for range ops {
		g.step()
	}
	return g.Workload
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
	case r < 8 && len(g.Times) > 0:
		at = g.Times[len(g.Times)-1]
	}
	e, err := events.New(events.Meta{Source: "workload", Actor: "admin", Time: at}, p)
	if err != nil {
		panic(err)
	}
	g.Envs = append(g.Envs, e)
	g.Times = append(g.Times, at)
}

// revision is what the next event's revision will be on a fresh log.
func (g *workloadGen) revision() uint64 { return uint64(len(g.Envs) + 1) }

func (g *workloadGen) step() {
	u, a := g.pick(g.Users), g.pick(g.Agents)
	switch r := g.rng.IntN(100); {
	case r < 20:
		g.edgeStep(true, u, a)
	case r < 35:
		g.edgeStep(false, a, g.pick(g.Resources))
	case r < 55:
		g.write(u)
	case r < 74:
		g.read(u, a)
	case r < 83:
		g.deliver(u)
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
		g.edges[[2]string{from, to}] = false
		if userAgent {
			g.emit(&events.UserAgentExpired{User: from, Agent: to, GrantRevision: e.rev, ExpiresAt: e.at})
		} else {
			g.emit(&events.AgentResourceExpired{Agent: from, Resource: to, GrantRevision: e.rev, ExpiresAt: e.at})
		}
		return
	}
	delete(g.expiring, k)
	defer g.noteChange(userAgent, from, to)
	if g.edges[[2]string{from, to}] = g.rng.IntN(100) < 65; !g.edges[[2]string{from, to}] {
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
	g.changes = append(g.changes, edgeChange{at: g.Times[len(g.Times)-1], userAgent: userAgent, from: from, to: to})
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
	g.Fragments = append(g.Fragments, id)
	g.emit(&events.FragmentWritten{ID: id, Key: "k " + id, Value: "v", Tier: tier, User: u,
		Agents: g.subset(g.Agents, 1, 3), Resources: g.subset(g.Resources, 0, 2), CreatedAt: g.now,
		QueryID: g.queryOf(u), Provenance: events.ProvenanceTransitive, Policy: events.PolicyTrace{Kind: "simple", Scope: "global"}})
}

// read serves u through a: mostly the current graph, some stale or from
// the future; fragments from u's private tier, the shared tier, another
// user's private tier, and now and then an id nobody wrote.
func (g *workloadGen) read(u, a string) {
	graphRev := g.graphRevision(15, 5)
	private := g.subset(g.private[u], 0, 2)
	shared := g.subset(g.shared, 0, 3)
	if other := g.pick(g.Users); other != u && len(g.private[other]) > 0 && g.rng.IntN(10) == 0 {
		shared = appendNew(shared, g.pick(g.private[other]))
	}
	if g.rng.IntN(50) == 0 {
		dangling := fmt.Sprintf("f%05d", g.nextFrag+1+g.rng.IntN(3)) // written later, or never
		shared = appendNew(shared, dangling)
		g.Fragments = appendNew(g.Fragments, dangling)
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
		g.emit(&events.AgentSelected{QueryID: q, User: u, Round: round, Agent: a, Subquery: "s", Offered: []string{a},
			Label: g.label(), GraphRevision: g.revision() - 1})
	case r < 65:
		g.emit(&events.ResourceCalled{QueryID: q, User: u, Round: round, Agent: a, Resource: g.pick(g.Resources),
			Arguments: map[string]any{"x": 1}, DurationMS: 1})
	case r < 85:
		g.emit(&events.AgentResponded{QueryID: q, User: u, Round: round, Agent: a, Subquery: "s", Response: "r",
			Resources: []string{}, FragmentsRead: []string{}, FragmentsWritten: []string{}, Label: g.label(),
			GraphRevision: g.revision() - 1})
	case r < 95:
		g.emit(&events.QueryAnswered{QueryID: q, User: u, Answer: "a", Rounds: round, Agents: []string{a},
			FragmentsRead: []string{}, FragmentsWritten: []string{}, Label: g.label()})
		delete(g.current, u)
	default:
		g.emit(&events.QueryFailed{QueryID: q, User: u, Stage: "agent", Reason: "boom"})
		delete(g.current, u)
	}
}

// graphRevision is the graph revision of a read or delivery appended
// next: the current graph, except stale% of the time an older one and
// future% of the time one from the future (which no honest reader has).
func (g *workloadGen) graphRevision(stale, future int) uint64 {
	rev := g.revision()
	switch r := g.rng.IntN(100); {
	case r < stale:
		return g.rng.Uint64N(rev)
	case r < stale+future:
		return rev + g.rng.Uint64N(3)
	}
	return rev - 1
}

// label is a random label of a model's output.
func (g *workloadGen) label() *events.Label {
	return &events.Label{Agents: g.subset(g.Agents, 1, 2), Resources: g.subset(g.Resources, 0, 2),
		Fragments: g.subset(g.Fragments, 0, 2)}
}

// deliver serves one of u's queries to u. Half the labels are built from
// the edges granted now (admissible unless the graph revision is stale),
// half are random (often not); graph revisions are mostly current, some
// stale and some from the future, as for reads.
func (g *workloadGen) deliver(u string) {
	q := g.current[u]
	if q == "" {
		q = fmt.Sprintf("q%05d", 1+g.rng.IntN(max(g.queries, 1)))
	}
	graphRev := g.graphRevision(10, 5)
	l := events.Label{Agents: g.subset(g.Agents, 0, 2), Resources: g.subset(g.Resources, 0, 2),
		Fragments: g.subset(g.Fragments, 0, 2)}
	if g.rng.IntN(2) == 0 {
		l.Agents, l.Resources = g.granted(u, g.Agents), nil
		for _, a := range l.Agents {
			l.Resources = append(l.Resources, g.granted(a, g.Resources)...)
		}
		l = events.Union(l)
	}
	d := &events.QueryDelivered{QueryID: q, User: u, Channel: g.pick([]string{"http", "nats"}),
		Status: g.pick([]string{"pending", "answered", "failed"}), GraphRevision: graphRev, Label: l}
	if g.rng.IntN(4) == 0 {
		d.Withheld = []events.Withheld{{Part: "step 1", Reason: "agent a0 is not available to " + u}}
	}
	g.Delivered = appendNew(g.Delivered, q)
	g.emit(d)
}

// granted is up to two of tos that from holds an edge to now.
func (g *workloadGen) granted(from string, tos []string) []string {
	var out []string
	for _, i := range g.rng.Perm(len(tos)) {
		if g.edges[[2]string{from, tos[i]}] && len(out) < 2 {
			out = append(out, tos[i])
		}
	}
	return out
}

func appendNew(s []string, id string) []string {
	if slices.Contains(s, id) {
		return s
	}
	return append(s, id)
}
