// Package accesstest holds a naive reference model of the access graphs and
// a random workload generator, shared by the property tests of the access
// projection in-process and through the real log.
package accesstest

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"time"

	"github.com/cmem/cmem/events"
)

// Op is one grant, revoke or expiry at a revision and time.
type Op struct {
	Rev     uint64
	At      time.Time
	UA      bool // true: user -> agent edge; false: agent -> resource edge
	From    string
	To      string
	Granted bool
	// Expires, on a grant, is when it ends by itself (zero: never); on an
	// expiry, the expiry of the grant at GrantRev it ends.
	Expires time.Time
	// Expired marks the expired event an expirer appends for the grant at
	// GrantRev (then Granted is false).
	Expired  bool
	GrantRev uint64
}

// Payload returns the event payload of the op.
func (o Op) Payload() events.Payload {
	var exp *time.Time
	if !o.Expires.IsZero() {
		exp = &o.Expires
	}
	switch {
	case o.Expired && o.UA:
		return &events.UserAgentExpired{User: o.From, Agent: o.To, GrantRevision: o.GrantRev, ExpiresAt: o.Expires}
	case o.Expired:
		return &events.AgentResourceExpired{Agent: o.From, Resource: o.To, GrantRevision: o.GrantRev, ExpiresAt: o.Expires}
	case o.UA && o.Granted:
		return &events.UserAgentGranted{User: o.From, Agent: o.To, ExpiresAt: exp}
	case o.UA:
		return &events.UserAgentRevoked{User: o.From, Agent: o.To}
	case o.Granted:
		return &events.AgentResourceGranted{Agent: o.From, Resource: o.To, ExpiresAt: exp}
	default:
		return &events.AgentResourceRevoked{Agent: o.From, Resource: o.To}
	}
}

// Q is a point a question is asked at, in the model's terms: by time (At),
// by revision (Rev), or by revision judged at a wall clock (Rev and Clock,
// access.Now).
type Q struct {
	ByTime bool
	Rev    uint64
	At     time.Time
	Clock  *time.Time
}

// Model answers by scanning every op of an edge: slow and obviously right.
type Model struct {
	Ops    []Op
	byEdge map[edgeKey][]Op
}

type edgeKey struct {
	ua       bool
	from, to string
}

// NewModel indexes ops by edge.
func NewModel(ops []Op) *Model {
	m := &Model{Ops: ops, byEdge: map[edgeKey][]Op{}}
	for _, o := range ops {
		k := edgeKey{o.UA, o.From, o.To}
		m.byEdge[k] = append(m.byEdge[k], o)
	}
	return m
}

// edge reports the state of one edge. By time: the (time, revision) order
// over the grants and revokes with At <= at (expired events are ignored:
// a grant's own expiry decides), off if the deciding grant expires at or
// before at. By revision: log order over every op with Rev <= rev, and with
// a clock, off if the deciding grant expires at or before the clock.
func (m *Model) edge(ua bool, from, to string, q Q) bool {
	o, ok := m.deciding(ua, from, to, q)
	if !ok || !o.Granted {
		return false
	}
	judge := q.At
	if !q.ByTime {
		if q.Clock == nil {
			return true
		}
		judge = *q.Clock
	}
	return o.Expires.IsZero() || judge.Before(o.Expires)
}

// Expiry is the expiry of the edge's deciding grant when the edge is on
// at q, zero when it is off or has no expiry.
func (m *Model) Expiry(ua bool, from, to string, q Q) time.Time {
	if !m.edge(ua, from, to, q) {
		return time.Time{}
	}
	o, _ := m.deciding(ua, from, to, q)
	return o.Expires
}

func (m *Model) deciding(ua bool, from, to string, q Q) (Op, bool) {
	byTime, rev, at := q.ByTime, q.Rev, q.At
	var cand []Op
	for _, o := range m.byEdge[edgeKey{ua, from, to}] {
		if byTime && !o.Expired && !o.At.After(at) || !byTime && o.Rev <= rev {
			cand = append(cand, o)
		}
	}
	if byTime {
		sort.SliceStable(cand, func(i, j int) bool {
			if !cand[i].At.Equal(cand[j].At) {
				return cand[i].At.Before(cand[j].At)
			}
			return cand[i].Rev < cand[j].Rev
		})
	}
	if len(cand) == 0 {
		return Op{}, false
	}
	return cand[len(cand)-1], true
}

// Neighbours returns the sorted set reachable from from among candidates.
func (m *Model) Neighbours(ua bool, from string, candidates []string, q Q) []string {
	out := []string{}
	for _, to := range candidates {
		if m.edge(ua, from, to, q) {
			out = append(out, to)
		}
	}
	return out
}

// Admissible is the reference M(u,a,·) membership test.
func (m *Model) Admissible(user, agent string, agents, resources []string, q Q) bool {
	for _, a := range agents {
		if !m.edge(true, user, a, q) {
			return false
		}
	}
	for _, r := range resources {
		if !m.edge(false, agent, r, q) {
			return false
		}
	}
	return true
}

// Universe is the ids a workload draws from.
type Universe struct{ Users, Agents, Resources []string }

// NewUniverse makes nu users, na agents and nr resources.
func NewUniverse(nu, na, nr int) Universe {
	ids := func(prefix string, n int) []string {
		out := make([]string, n)
		for i := range out {
			out[i] = fmt.Sprintf("%s%03d", prefix, i)
		}
		return out
	}
	return Universe{Users: ids("u", nu), Agents: ids("a", na), Resources: ids("r", nr)}
}

// RandomOps returns n grants, revokes and expiries over u with revisions
// first+0..n-1 and times scattered (not monotone) over a window starting at
// base, so that time order and log order disagree often. Half the grants
// expire 1s..3min after their time; an expiry op ends the newest grant of
// an edge only while it is the edge's newest op (as the log's conditional
// append guarantees), at a random delay after the expiry.
func RandomOps(rng *rand.Rand, u Universe, n int, first uint64, base time.Time) []Op {
	ops := make([]Op, n)
	last := map[edgeKey]Op{}
	for i := range ops {
		ua := rng.IntN(2) == 0
		o := Op{Rev: first + uint64(i), UA: ua, Granted: rng.IntN(3) != 0}
		// Mostly forward in time with jitter, sometimes far back, sometimes
		// at exactly the same instant as another op.
		at := base.Add(time.Duration(i) * time.Second).Add(time.Duration(rng.IntN(60)-30) * time.Second)
		if rng.IntN(10) == 0 {
			at = base.Add(time.Duration(rng.IntN(n)) * time.Second)
		}
		o.At = at.UTC()
		if ua {
			o.From, o.To = pick(rng, u.Users), pick(rng, u.Agents)
		} else {
			o.From, o.To = pick(rng, u.Agents), pick(rng, u.Resources)
		}
		k := edgeKey{ua, o.From, o.To}
		switch prev, ok := last[k]; {
		case ok && prev.Granted && !prev.Expires.IsZero() && rng.IntN(2) == 0:
			o.Granted, o.Expired, o.GrantRev, o.Expires = false, true, prev.Rev, prev.Expires
			o.At = prev.Expires.Add(time.Duration(rng.IntN(5000)) * time.Millisecond)
		case o.Granted && rng.IntN(2) == 0:
			o.Expires = o.At.Add(time.Second + time.Duration(rng.IntN(180_000))*time.Millisecond)
		}
		last[k] = o
		ops[i] = o
	}
	return ops
}

// Subset returns a random subset of ids of size 0..max.
func Subset(rng *rand.Rand, ids []string, max int) []string {
	n := rng.IntN(max + 1)
	out := make([]string, 0, n)
	for range n {
		out = append(out, pick(rng, ids))
	}
	return out
}

func pick(rng *rand.Rand, ids []string) string { return ids[rng.IntN(len(ids))] }
