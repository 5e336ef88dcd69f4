package access

import (
	"context"

	"github.com/cmem/cmem/projectors/snapshot"
)

// graphState is the graph as a snapshot holds it: every edge with its whole
// history (both orders), so that a process started from a snapshot answers
// reads at any earlier Point as one that replayed the log. The graph holds
// no content (ids, token hashes, registrations): nothing is sealed.
type graphState struct {
	Users     []User
	Agents    []Agent
	Resources []Resource
	UA, AR    []edgeState
	Due       []Due
}

type edgeState struct {
	From, To      string
	ByRev, ByTime []changeState
}

type changeState struct {
	Rev         uint64
	At, Expires int64
	Granted     bool
}

var _ snapshot.Freezer = (*Graph)(nil)

// MarshalSnapshot implements snapshot.Section.
func (g *Graph) MarshalSnapshot(ctx context.Context, s snapshot.Sealer) ([]byte, error) {
	return g.FreezeSnapshot()(ctx, s)
}

// FreezeSnapshot implements snapshot.Freezer: users, agents, resources and
// every edge history are copied; the result encodes.
func (g *Graph) FreezeSnapshot() snapshot.Frozen {
	g.mu.RLock()
	st := graphState{UA: g.ua.state(), AR: g.ar.state()}
	for _, u := range g.users {
		st.Users = append(st.Users, u)
	}
	for _, a := range g.agents {
		st.Agents = append(st.Agents, a)
	}
	for _, r := range g.resources {
		st.Resources = append(st.Resources, r)
	}
	for _, d := range g.due {
		st.Due = append(st.Due, d)
	}
	g.mu.RUnlock()
	return func(context.Context, snapshot.Sealer) ([]byte, error) { return snapshot.EncodeJSON("access", st) }
}

// RestoreSnapshot implements snapshot.Section.
func (g *Graph) RestoreSnapshot(_ context.Context, _ snapshot.Sealer, revision uint64, data []byte) (func(), error) {
	var st graphState
	if err := snapshot.DecodeJSON("access", data, &st); err != nil {
		return nil, err
	}
	n := NewGraph()
	for _, u := range st.Users {
		n.users[u.ID] = u
		if u.TokenSHA256 != "" {
			n.byToken[u.TokenSHA256] = u.ID
		}
	}
	for _, a := range st.Agents {
		n.agents[a.ID] = a
	}
	for _, r := range st.Resources {
		n.resources[r.ID] = r
	}
	n.ua.restore(st.UA)
	n.ar.restore(st.AR)
	for _, d := range st.Due {
		n.due[edgeKey{d.UserAgent, d.From, d.To}] = d
	}
	return func() {
		g.mu.Lock()
		defer g.mu.Unlock()
		g.revision, g.users, g.byToken, g.agents, g.resources = revision, n.users, n.byToken, n.agents, n.resources
		g.ua, g.ar, g.due = n.ua, n.ar, n.due
	}, nil
}

func (e edges) state() []edgeState {
	var out []edgeState
	for from, m := range e {
		for to, h := range m {
			out = append(out, edgeState{From: from, To: to, ByRev: changeStates(h.byRev), ByTime: changeStates(h.byTime)})
		}
	}
	return out
}

func (e edges) restore(st []edgeState) {
	for _, s := range st {
		m := e[s.From]
		if m == nil {
			m = make(map[string]*history)
			e[s.From] = m
		}
		m[s.To] = &history{byRev: changes(s.ByRev), byTime: changes(s.ByTime)}
	}
}

func changeStates(cs []change) []changeState {
	out := make([]changeState, len(cs))
	for i, c := range cs {
		out[i] = changeState{Rev: c.rev, At: c.at, Expires: c.expires, Granted: c.granted}
	}
	return out
}

func changes(cs []changeState) []change {
	if len(cs) == 0 {
		return nil
	}
	out := make([]change, len(cs))
	for i, c := range cs {
		out[i] = change{rev: c.Rev, at: c.At, expires: c.Expires, granted: c.Granted}
	}
	return out
}
