package graphmem

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/projectors/snapshot"
)

// state is graph memory as a snapshot holds it: per user the count of
// finished queries seen and each query node sealed under its query's data
// key (text, utterances, vector), and the pipeline state it folds queries
// from. Insights are not stored: they are a pure function of the queries
// present and are distilled again at restore, so an erased query can
// never come back through one.
type state struct {
	Users map[string]userState
	Steps []byte
}

type userState struct {
	Seen    int
	Queries []sealedNode
}

type sealedNode struct {
	ID     string
	Sealed string
}

// nodeState is a query node with its unexported parts.
type nodeState struct {
	Query
	Seq          int
	Vec          []float32
	Interactions []Interaction
	Fragments    []string
	Called       map[string][]string
}

var _ snapshot.Freezer = (*Projection)(nil)

// MarshalSnapshot implements snapshot.Section. A node whose query key is
// gone (its content was erased) is left out.
func (p *Projection) MarshalSnapshot(ctx context.Context, s snapshot.Sealer) ([]byte, error) {
	return p.FreezeSnapshot()(ctx, s)
}

// frozenUser is a user's graph as it was at a freeze.
type frozenUser struct {
	seen  int
	nodes map[string]nodeState
}

// FreezeSnapshot implements snapshot.Freezer: every node is copied, with
// the lists and maps a later event changes in place cloned; the result
// encodes and seals them.
func (p *Projection) FreezeSnapshot() snapshot.Frozen {
	p.mu.RLock()
	steps := p.steps.FreezeSnapshot()
	users := make(map[string]frozenUser, len(p.users))
	for user, g := range p.users {
		fu := frozenUser{seen: g.seen, nodes: make(map[string]nodeState, len(g.queries))}
		for id, n := range g.queries {
			q := *n
			q.Neighbors = slices.Clone(n.Neighbors)
			called := make(map[string][]string, len(n.called))
			for a, rs := range n.called {
				called[a] = slices.Clone(rs)
			}
			if n.called == nil {
				called = nil
			}
			fu.nodes[id] = nodeState{Query: q, Seq: n.seq, Vec: n.vec, Interactions: slices.Clone(n.interactions),
				Fragments: slices.Clone(n.fragments), Called: called}
		}
		users[user] = fu
	}
	p.mu.RUnlock()
	return func(ctx context.Context, s snapshot.Sealer) ([]byte, error) { return sealUsers(ctx, s, steps, users) }
}

func sealUsers(ctx context.Context, s snapshot.Sealer, frozenSteps snapshot.Frozen, users map[string]frozenUser) ([]byte, error) {
	steps, err := frozenSteps(ctx, s)
	if err != nil {
		return nil, err
	}
	st := state{Users: make(map[string]userState, len(users)), Steps: steps}
	for user, fu := range users {
		us := userState{Seen: fu.seen}
		for id, ns := range fu.nodes {
			plain, err := json.Marshal(ns)
			if err != nil {
				return nil, fmt.Errorf("graphmem: encode snapshot of %s: %w", id, err)
			}
			sealed, err := s.Seal(ctx, events.DataSubject{User: user, Query: id}, plain)
			if errors.Is(err, snapshot.ErrGone) {
				continue
			}
			if err != nil {
				return nil, err
			}
			us.Queries = append(us.Queries, sealedNode{ID: id, Sealed: sealed})
		}
		st.Users[user] = us
	}
	return snapshot.EncodeJSON("graphmem", st)
}

// RestoreSnapshot implements snapshot.Section: a node whose key was
// destroyed since is dropped, and every user's insights are distilled
// again from what remains.
func (p *Projection) RestoreSnapshot(ctx context.Context, s snapshot.Sealer, revision uint64, data []byte) (func(), error) {
	var st state
	if err := snapshot.DecodeJSON("graphmem", data, &st); err != nil {
		return nil, err
	}
	installSteps, err := p.steps.RestoreSnapshot(ctx, s, revision, st.Steps)
	if err != nil {
		return nil, err
	}
	users := make(map[string]*userGraph, len(st.Users))
	for user, us := range st.Users {
		g := &userGraph{seen: us.Seen, queries: map[string]*Query{}}
		for _, sn := range us.Queries {
			plain, err := s.Open(ctx, sn.Sealed)
			if errors.Is(err, snapshot.ErrGone) {
				continue
			}
			if err != nil {
				return nil, fmt.Errorf("graphmem: open snapshot of %s: %w", sn.ID, err)
			}
			var ns nodeState
			if err := json.Unmarshal(plain, &ns); err != nil {
				return nil, fmt.Errorf("graphmem: decode snapshot of %s: %w", sn.ID, err)
			}
			n := ns.Query
			n.seq, n.vec, n.interactions, n.fragments, n.called = ns.Seq, ns.Vec, ns.Interactions, ns.Fragments, ns.Called
			g.queries[sn.ID] = &n
		}
		for id, n := range g.queries { // edges to dropped nodes go with them
			kept := n.Neighbors[:0:0]
			for _, nb := range n.Neighbors {
				if g.queries[nb] != nil {
					kept = append(kept, nb)
				}
			}
			g.queries[id].Neighbors = kept
		}
		g.insights = Distill(user, g.queries)
		users[user] = g
	}
	return func() {
		installSteps()
		p.mu.Lock()
		defer p.mu.Unlock()
		p.revision, p.users, p.pending = revision, users, nil
		clear(p.dirty)
	}, nil
}
