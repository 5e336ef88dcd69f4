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

// Op is one grant or revoke at a revision and time.
type Op struct {
	Rev     uint64
	At      time.Time
	UA      bool // true: user -> agent edge; false: agent -> resource edge
	From    string
	To      string
	Granted bool
}

// Payload returns the event payload of the op.
func (o Op) Payload() events.Payload {
	switch {
	case o.UA && o.Granted:
		return &events.UserAgentGranted{User: o.From, Agent: o.To}
	case o.UA:
		return &events.UserAgentRevoked{User: o.From, Agent: o.To}
	case o.Granted:
		return &events.AgentResourceGranted{Agent: o.From, Resource: o.To}
	default:
		return &events.AgentResourceRevoked{Agent: o.From, Resource: o.To}
	}
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

// edge reports the state of one edge. byTime selects the (time, revision)
// order over all ops with At <= at; otherwise log order over Rev <= rev.
func (m *Model) edge(ua bool, from, to string, byTime bool, rev uint64, at time.Time) bool {
	var cand []Op
	for _, o := range m.byEdge[edgeKey{ua, from, to}] {
		if byTime && !o.At.After(at) || !byTime && o.Rev <= rev {
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
	return len(cand) > 0 && cand[len(cand)-1].Granted
}

// Neighbours returns the sorted set reachable from from among candidates.
func (m *Model) Neighbours(ua bool, from string, candidates []string, byTime bool, rev uint64, at time.Time) []string {
	out := []string{}
	for _, to := range candidates {
		if m.edge(ua, from, to, byTime, rev, at) {
			out = append(out, to)
		}
	}
	return out
}

// Admissible is the reference M(u,a,·) membership test.
func (m *Model) Admissible(user, agent string, agents, resources []string, byTime bool, rev uint64, at time.Time) bool {
	for _, a := range agents {
		if !m.edge(true, user, a, byTime, rev, at) {
			return false
		}
	}
	for _, r := range resources {
		if !m.edge(false, agent, r, byTime, rev, at) {
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

// RandomOps returns n grants and revokes over u with revisions first+0..n-1
// and times scattered (not monotone) over a window starting at base, so that
// time order and log order disagree often.
func RandomOps(rng *rand.Rand, u Universe, n int, first uint64, base time.Time) []Op {
	ops := make([]Op, n)
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
