package graphmem

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/cmem/cmem/events"
)

// Request asks for the graph memory of User's query through Agent.
type Request struct {
	User, Agent, Query string
	// Admit is the read rule for (User, Agent, now): whether content with
	// this provenance may be shown. Every node returned or passed through
	// is admitted by it.
	Admit func(events.Label) bool
}

// Result is graph memory for one query: insights (the reading agent's role
// first), the queries retrieved (most similar first) and the key
// interactions of the most similar of them.
type Result struct {
	Insights     []Insight     `json:"insights"`
	Queries      []Query       `json:"queries"`
	Interactions []Interaction `json:"interactions"`
}

// Retrieve traverses the user's graph for req (see the package doc: paper
// 003 Eq. 4–8), returning and passing through only nodes req.Admit admits.
func (p *Projection) Retrieve(ctx context.Context, req Request) (Result, error) {
	if req.Admit == nil {
		return Result{}, errors.New("graphmem: Retrieve needs the read rule (Request.Admit)")
	}
	vecs, err := p.embedder.Embed(ctx, []string{req.Query})
	if err != nil {
		return Result{}, fmt.Errorf("graphmem: embed query: %w", err)
	}
	v := vecs[0]
	out := Result{Insights: []Insight{}, Queries: []Query{}, Interactions: []Interaction{}}
	p.mu.RLock()
	defer p.mu.RUnlock()
	g := p.users[req.User]
	if g == nil {
		return out, nil
	}
	// Eq. 4: the K most similar admissible queries.
	admitted := make(map[string]float32, len(g.queries)) // admissible query → its similarity
	var seeds []scored                                   // the K best so far, best first
	for _, n := range g.queries {
		if n.vec == nil || !req.Admit(n.Provenance) {
			continue
		}
		s := scored{n: n, score: dot(v, n.vec)}
		admitted[n.ID] = s.score
		if len(seeds) < p.cfg.K || byScore(s, seeds[len(seeds)-1]) < 0 {
			i, _ := slices.BinarySearchFunc(seeds, s, byScore)
			seeds = slices.Insert(seeds, i, s)
			seeds = seeds[:min(len(seeds), p.cfg.K)]
		}
	}
	// Eq. 5: and their admissible 1-hop neighbours.
	in := map[string]bool{}
	set := slices.Clone(seeds)
	for _, s := range seeds {
		in[s.n.ID] = true
	}
	for _, s := range seeds {
		for _, nb := range s.n.Neighbors {
			if score, ok := admitted[nb]; ok && !in[nb] {
				in[nb] = true
				set = append(set, scored{n: g.queries[nb], score: score})
			}
		}
	}
	slices.SortFunc(set, byScore)
	for _, s := range set[:min(p.cfg.MaxQueries, len(set))] {
		c := *s.n
		c.Score, c.vec, c.interactions, c.called, c.fragments = s.score, nil, nil, nil, nil
		c.Neighbors = slices.DeleteFunc(slices.Clone(s.n.Neighbors), func(id string) bool { _, ok := admitted[id]; return !ok })
		out.Queries = append(out.Queries, c)
	}
	out.Insights = p.upward(g, req, in)
	// Eq. 7: downward, the key interactions of the M most similar.
	for _, s := range set[:min(p.cfg.M, len(set))] {
		for _, it := range s.n.interactions {
			if len(out.Interactions) < p.cfg.MaxInteractions && req.Admit(it.Provenance) {
				out.Interactions = append(out.Interactions, it)
			}
		}
	}
	return out, nil
}

// scored is a query with its similarity to the query retrieved for.
type scored struct {
	n     *Query
	score float32
}

// dot is the cosine similarity of two L2-normalised vectors (every
// embedder's contract); 0 when their lengths differ.
func dot(a, b []float32) float32 {
	if len(a) != len(b) {
		return 0
	}
	var s float32
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}

// byScore orders the most similar first, then by id.
func byScore(a, b scored) int {
	return cmp.Or(cmp.Compare(b.score, a.score), cmp.Compare(a.n.ID, b.n.ID))
}

// upward is Eq. 6 and 8: the admissible insights whose supporting queries
// meet the retrieved set, those of the reading agent's role first, then
// those for every role, then the others; within each, the most supported
// by the retrieved set first.
func (p *Projection) upward(g *userGraph, req Request, in map[string]bool) []Insight {
	type hit struct {
		ins        Insight
		rank, hits int
	}
	var hits []hit
	for _, ins := range g.insights {
		n := 0
		for _, q := range ins.Supporting {
			if in[q] {
				n++
			}
		}
		if n == 0 || !req.Admit(ins.Provenance) {
			continue
		}
		rank := 2
		switch ins.Role {
		case req.Agent:
			rank = 0
		case "":
			rank = 1
		}
		hits = append(hits, hit{ins: ins, rank: rank, hits: n})
	}
	slices.SortFunc(hits, func(a, b hit) int {
		return cmp.Or(cmp.Compare(a.rank, b.rank), cmp.Compare(b.hits, a.hits),
			cmp.Compare(len(b.ins.Supporting), len(a.ins.Supporting)), cmp.Compare(a.ins.ID, b.ins.ID))
	})
	out := []Insight{}
	for _, h := range hits[:min(p.cfg.MaxInsights, len(hits))] {
		h.ins.Supporting = slices.Clone(h.ins.Supporting)
		out = append(out, h.ins)
	}
	return out
}

// State is the projection's content, for comparing a rebuilt projection
// with a live one: per user, the queries sorted by id (with their
// embeddings, utterances and edges) and the insights.
type State struct {
	Users map[string]UserState
}

// UserState is one user's graphs.
type UserState struct {
	Seen     int
	Queries  []Query
	Insights []Insight
}

// State returns a deep copy of the content.
func (p *Projection) State() State {
	p.mu.RLock()
	defer p.mu.RUnlock()
	s := State{Users: map[string]UserState{}}
	for u, g := range p.users {
		us := UserState{Seen: g.seen, Insights: slices.Clone(g.insights)}
		for _, n := range g.queries {
			c := *n
			c.Neighbors = slices.Clone(n.Neighbors)
			c.interactions = slices.Clone(n.interactions)
			us.Queries = append(us.Queries, c)
		}
		slices.SortFunc(us.Queries, func(a, b Query) int { return cmp.Compare(a.ID, b.ID) })
		s.Users[u] = us
	}
	return s
}

// Interactions returns the utterances of a query node (for tests and the
// console).
func (q Query) Interactions() []Interaction { return slices.Clone(q.interactions) }
