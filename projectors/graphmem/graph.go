package graphmem

import (
	"context"
	"fmt"
	"slices"
	"sync"

	"github.com/cmem/cmem/embedding"
	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/projectors/query"
)

// Statuses of a query node (paper 003: Resolved, Failed).
const (
	StatusAnswered = "answered"
	StatusFailed   = "failed"
)

// Kinds of an interaction.
const (
	KindSelected  = "selected"  // the coordinator's subquery to the agent
	KindResponded = "responded" // the agent's response
)

// Interaction is one utterance of a query's interaction graph; its
// predecessor is the utterance before it in the same query.
type Interaction struct {
	ID         string       `json:"id"`
	Query      string       `json:"query"`
	Round      int          `json:"round"`
	Agent      string       `json:"agent"`
	Kind       string       `json:"kind"`
	Text       string       `json:"text"`
	Provenance events.Label `json:"provenance"`
}

// Query is a node of the query graph.
type Query struct {
	ID     string `json:"id"`
	Text   string `json:"text"`
	Status string `json:"status"`
	// Stage and Reason say where and why a failed query failed.
	Stage      string       `json:"stage,omitempty"`
	Reason     string       `json:"reason,omitempty"`
	Provenance events.Label `json:"provenance"`
	// Neighbors are the queries joined to it by a semantic edge, sorted.
	Neighbors []string `json:"neighbors"`
	// Score is the similarity to the query retrieved for (answers only).
	Score float32 `json:"score"`

	seq          int
	vec          []float32
	interactions []Interaction
	fragments    []string            // every fragment its utterances were built from
	called       map[string][]string // agents that answered → resources they called
}

// Insight is a node of the insight graph: a lesson distilled from queries
// (its Supporting ones) for one agent's role ("" = every role).
type Insight struct {
	ID         string       `json:"id"`
	Role       string       `json:"role"`
	Status     string       `json:"status"`
	Approach   string       `json:"approach"`
	Text       string       `json:"text"`
	Supporting []string     `json:"supporting"`
	Provenance events.Label `json:"provenance"`
}

// userGraph is one user's three tiers.
type userGraph struct {
	seen     int // finished queries seen, erased ones included (eviction)
	queries  map[string]*Query
	insights []Insight
}

// Projection is graph memory as a projection of the log. It implements
// projectors.Projection and projectors.Flusher: Apply records finished
// queries, Flush embeds them and draws their edges. Safe for concurrent
// use by one writer and any number of readers.
type Projection struct {
	cfg      Config
	embedder embedding.Embedder

	mu       sync.RWMutex
	revision uint64
	steps    *query.Projection // the pipeline's state of unfinished queries
	users    map[string]*userGraph
	pending  []pending       // finished queries waiting for their embedding
	dirty    map[string]bool // users whose insights wait for the next Flush
}

type pending struct{ user, id string }

// New returns an empty projection embedding with e.
func New(cfg Config, e embedding.Embedder) (*Projection, error) {
	cfg = cfg.WithDefaults()
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if e == nil {
		return nil, fmt.Errorf("graphmem: an embedder is required")
	}
	return &Projection{cfg: cfg, embedder: e, steps: query.NewBoundedProjection(1), users: map[string]*userGraph{},
		dirty: map[string]bool{}}, nil
}

// Name implements projectors.Projection.
func (*Projection) Name() string { return "graph-memory" }

// Apply implements projectors.Projection.
func (p *Projection) Apply(r events.Record) error {
	switch r.Type {
	case events.TypeQuerySubmitted, events.TypeAgentSelected, events.TypeResourceCalled, events.TypeAgentResponded,
		events.TypeQueryAnswered, events.TypeQueryFailed, events.TypeUserErased, events.TypeFragmentDeleted:
	default:
		return nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if r.Revision <= p.revision {
		return nil
	}
	p.revision = r.Revision
	if err := p.steps.Apply(r); err != nil {
		return err
	}
	if r.Type != events.TypeQueryAnswered && r.Type != events.TypeQueryFailed && r.Type != events.TypeUserErased &&
		r.Type != events.TypeFragmentDeleted {
		return nil
	}
	pl, err := r.Decode()
	if err != nil {
		return err
	}
	switch pl := pl.(type) {
	case *events.QueryAnswered:
		p.finished(pl.QueryID, r.Revision)
	case *events.QueryFailed:
		p.finished(pl.QueryID, r.Revision)
	case *events.UserErased:
		delete(p.users, pl.User)
		p.eraseQueries(pl.Queries, pl.Fragments)
	case *events.FragmentDeleted:
		p.eraseQueries(pl.Queries, append([]string{pl.ID}, pl.Derived...))
	}
	return nil
}

// finished adds the query the event at rev finished. Called with p.mu held.
func (p *Projection) finished(id string, rev uint64) {
	q, ok := p.steps.Get(id)
	if !ok || !q.Done || q.Revision != rev {
		return // unknown, or not finished by this event (a duplicate)
	}
	g := p.users[q.User]
	if g == nil {
		g = &userGraph{queries: map[string]*Query{}}
		p.users[q.User] = g
	}
	g.seen++
	if n := node(q, g.seen); n != nil {
		g.queries[q.ID] = n
		p.pending = append(p.pending, pending{user: q.User, id: q.ID})
	}
	for qid, n := range g.queries {
		if n.seq <= g.seen-p.cfg.PerUser {
			g.remove(qid)
		}
	}
	// Distilled once per batch (in Flush), not once per query: a rebuild
	// would otherwise distil each user's graph once per query it holds.
	p.dirty[q.User] = true
}

// node is the query-graph node of q, or nil when its content is erased.
func node(q query.Query, seq int) *Query {
	if q.Erased || q.Text == events.Erased {
		return nil
	}
	n := &Query{ID: q.ID, Text: q.Text, Status: StatusAnswered, seq: seq, Neighbors: []string{}, called: map[string][]string{}}
	if q.Failed() {
		n.Status, n.Stage, n.Reason = StatusFailed, q.FailStage, q.FailReason
	}
	labels := []events.Label{q.Label}
	for _, st := range q.Steps {
		labels = append(labels, st.SubqueryLabel, st.Label)
		n.interactions = append(n.interactions, Interaction{ID: fmt.Sprintf("%s/%d/%s", q.ID, st.Round, KindSelected),
			Query: q.ID, Round: st.Round, Agent: st.Agent, Kind: KindSelected, Text: st.Subquery, Provenance: events.Union(st.SubqueryLabel)})
		if st.Responded && st.Refused == "" {
			n.called[st.Agent] = events.SortedSet(append(n.called[st.Agent], st.Resources...))
			n.interactions = append(n.interactions, Interaction{ID: fmt.Sprintf("%s/%d/%s", q.ID, st.Round, KindResponded),
				Query: q.ID, Round: st.Round, Agent: st.Agent, Kind: KindResponded, Text: st.Response, Provenance: events.Union(st.Label)})
		}
	}
	for _, in := range n.interactions {
		if in.Text == events.Erased {
			return nil
		}
	}
	n.Provenance = events.Union(labels...)
	n.fragments = n.Provenance.Fragments
	return n
}

// eraseQueries drops the listed queries and every query built from one of
// the erased fragments, in every user's graph. Called with p.mu held.
func (p *Projection) eraseQueries(ids, fragments []string) {
	for user, g := range p.users {
		changed := false
		for id, n := range g.queries {
			if slices.Contains(ids, id) || slices.ContainsFunc(n.fragments, func(f string) bool { return slices.Contains(fragments, f) }) {
				g.remove(id)
				changed = true
			}
		}
		if changed {
			// At once, not in Flush: an insight may quote erased text.
			g.insights = Distill(user, g.queries)
		}
	}
}

// remove drops query id and its edges.
func (g *userGraph) remove(id string) {
	n := g.queries[id]
	if n == nil {
		return
	}
	delete(g.queries, id)
	for _, nb := range n.Neighbors {
		if m := g.queries[nb]; m != nil {
			m.Neighbors = slices.DeleteFunc(m.Neighbors, func(x string) bool { return x == id })
		}
	}
}

// Flush implements projectors.Flusher: it embeds the queries finished in
// this batch and joins each to every query of its user it is similar to.
func (p *Projection) Flush(ctx context.Context) error {
	p.mu.RLock()
	var texts []string
	var which []pending
	for _, pd := range p.pending {
		if g := p.users[pd.user]; g != nil && g.queries[pd.id] != nil {
			texts, which = append(texts, g.queries[pd.id].Text), append(which, pd)
		}
	}
	p.mu.RUnlock()
	var vecs [][]float32
	if len(texts) > 0 {
		var err error
		if vecs, err = p.embedder.Embed(ctx, texts); err != nil {
			return fmt.Errorf("graphmem: embed %d queries: %w", len(texts), err)
		}
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	for i, pd := range which {
		g := p.users[pd.user]
		if g == nil || g.queries[pd.id] == nil {
			continue
		}
		n := g.queries[pd.id]
		n.vec = vecs[i]
		for id, m := range g.queries {
			if id != n.ID && m.vec != nil && embedding.Cosine(n.vec, m.vec) >= p.cfg.EdgeThreshold {
				n.Neighbors = insertSorted(n.Neighbors, id)
				m.Neighbors = insertSorted(m.Neighbors, n.ID)
			}
		}
	}
	p.pending = nil
	for user := range p.dirty {
		if g := p.users[user]; g != nil {
			g.insights = Distill(user, g.queries)
		}
	}
	clear(p.dirty)
	return nil
}

// Discard implements projectors.Flusher. The runner replays a failed batch,
// but this projection has applied its events already (and skips them by
// revision), so the finished queries and the users to distil stay queued
// for the next Flush.
func (p *Projection) Discard() {}

func insertSorted(s []string, x string) []string {
	i, found := slices.BinarySearch(s, x)
	if found {
		return s
	}
	return slices.Insert(s, i, x)
}

// Revision is the revision of the last event applied.
func (p *Projection) Revision() uint64 {
	p.mu.RLock()
	defer p.mu.RUnlock()
	return p.revision
}
