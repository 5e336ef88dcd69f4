package audit

import (
	"context"
	"sync"

	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/projectors/access"
)

// History is the in-process audit trail: a projection holding every
// fragment's provenance, every read and the query pipeline's facts, which
// answers audit questions against an *access.Graph. It is the Backend when
// no ClickHouse is configured, and the reference the ClickHouse store is
// tested against (package audittest).
//
// The graph must be fed by the same runner, before the history: answers
// need the graphs up to the revisions the history holds.
type History struct {
	graph *access.Graph

	mu        sync.RWMutex
	revision  uint64
	fragments map[string]*fragment // by id; the first write of an id wins
	written   []*fragment          // in log order
	reads     []*read              // in log order
	readsOf   map[string][]*read   // by fragment id
	queries   map[string]*queryAgg
	activity  []activity

	deliveries   []*delivery            // in log order
	deliveriesOf map[string][]*delivery // by query id
}

type fragment struct {
	id, user, tier string
	prov           access.Provenance
	revision       uint64
	timeNS         int64
}

type read struct {
	event                 string
	revision, graphRev    uint64
	timeNS                int64
	user, agent           string
	private, shared       []string
	privateSet, sharedSet map[string]bool
}

// queryAgg folds every event of one query; the field rules mirror the
// query_metrics view.
type queryAgg struct {
	user                      string // smallest user id seen (min, as the view)
	atNS                      int64  // earliest event
	agents                    map[string]bool
	resourceCalls             uint64
	private, shared, writtenF map[string]bool
}

type activityKind uint8

const (
	actSubmitted activityKind = iota
	actResourceCalled
	actRead
	actWritten
)

// activity is one event in the user_activity view's terms.
type activity struct {
	user            string
	timeNS          int64
	kind            activityKind
	private, shared int
}

// NewHistory returns an empty history that answers with graph.
func NewHistory(graph *access.Graph) *History {
	return &History{graph: graph, fragments: map[string]*fragment{}, readsOf: map[string][]*read{}, queries: map[string]*queryAgg{},
		deliveriesOf: map[string][]*delivery{}}
}

// Name implements projectors.Projection; it is stable because it names the
// projection's dead-letter subject.
func (h *History) Name() string { return "audit-history" }

// Revision implements Backend.
func (h *History) Revision(context.Context) (uint64, error) {
	h.mu.RLock()
	defer h.mu.RUnlock()
	return h.revision, nil
}

// Apply implements projectors.Projection: records at or below the current
// revision are ignored, which makes redelivery harmless.
func (h *History) Apply(r events.Record) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if r.Revision <= h.revision {
		return nil
	}
	h.revision = r.Revision
	if !recorded[r.Type] {
		return nil
	}
	p, err := r.Decode()
	if err != nil {
		return err
	}
	ns := r.Time.UnixNano()
	switch p := p.(type) {
	case *events.FragmentWritten:
		if _, dup := h.fragments[p.ID]; !dup {
			f := &fragment{id: p.ID, user: p.User, tier: p.Tier, revision: r.Revision, timeNS: ns,
				prov: access.Provenance{Agents: p.Agents, Resources: p.Resources}}
			h.fragments[p.ID] = f
			h.written = append(h.written, f)
		}
		h.activity = append(h.activity, activity{user: p.User, timeNS: ns, kind: actWritten})
		if q := h.query(p.QueryID, p.User, ns); q != nil {
			q.writtenF[p.ID] = true
		}
	case *events.MemoryRead:
		h.applyRead(r, p, ns)
	case *events.QueryDelivered:
		h.applyDelivery(r, p, ns)
	case *events.QueriesListed:
		// One listing, judged as the deliveries it holds.
		for i := range p.Deliveries {
			h.applyDelivery(r, &p.Deliveries[i], ns)
		}
	default:
		h.applyFact(p, ns)
	}
	return nil
}

// recorded lists the event types the history keeps something of; grants
// and revokes it reads from the graph it answers with.
var recorded = map[string]bool{
	events.TypeFragmentWritten: true, events.TypeMemoryRead: true, events.TypeQueryDelivered: true, events.TypeQueriesListed: true,
	events.TypeQuerySubmitted: true, events.TypeAgentSelected: true, events.TypeResourceCalled: true,
	events.TypeAgentResponded: true, events.TypeQueryAnswered: true, events.TypeQueryFailed: true,
}

func (h *History) applyRead(r events.Record, p *events.MemoryRead, ns int64) {
	rd := &read{event: r.ID, revision: r.Revision, graphRev: p.GraphRevision, timeNS: ns, user: p.User, agent: p.Agent,
		private: p.Private, shared: p.Shared, privateSet: set(p.Private), sharedSet: set(p.Shared)}
	h.reads = append(h.reads, rd)
	for _, id := range union(p.Private, p.Shared) {
		h.readsOf[id] = append(h.readsOf[id], rd)
	}
	h.activity = append(h.activity, activity{user: p.User, timeNS: ns, kind: actRead, private: len(p.Private), shared: len(p.Shared)})
	if q := h.query(p.QueryID, p.User, ns); q != nil {
		for _, id := range p.Private {
			q.private[id] = true
		}
		for _, id := range p.Shared {
			q.shared[id] = true
		}
	}
}

func (h *History) applyFact(p events.Payload, ns int64) {
	f, ok := FactOf(p)
	if !ok {
		return
	}
	q := h.query(f.Query, f.User, ns)
	switch f.Kind {
	case factSubmitted:
		h.activity = append(h.activity, activity{user: f.User, timeNS: ns, kind: actSubmitted})
	case factResourceCalled:
		h.activity = append(h.activity, activity{user: f.User, timeNS: ns, kind: actResourceCalled})
		q.resourceCalls++
	case factAgentSelected:
		q.agents[f.Agent] = true
	}
}

// query returns the aggregate of query id, folding in one event of user at
// ns; nil for events outside any query.
func (h *History) query(id, user string, ns int64) *queryAgg {
	if id == "" {
		return nil
	}
	q := h.queries[id]
	if q == nil {
		q = &queryAgg{user: user, atNS: ns, agents: map[string]bool{}, private: map[string]bool{}, shared: map[string]bool{}, writtenF: map[string]bool{}}
		h.queries[id] = q
	}
	q.user = min(q.user, user)
	q.atNS = min(q.atNS, ns)
	return q
}

func set(ids []string) map[string]bool {
	m := make(map[string]bool, len(ids))
	for _, id := range ids {
		m[id] = true
	}
	return m
}

// union is a then the ids of b not in a.
func union(a, b []string) []string {
	out := append([]string{}, a...)
	in := set(a)
	for _, id := range b {
		if !in[id] {
			out = append(out, id)
		}
	}
	return out
}
