package query

import (
	"context"
	"sync"
	"time"

	"github.com/cmem/cmem/events"
)

// Step is one round of a query: the coordinator's choice and the agent's
// response, once it has come.
type Step struct {
	Round         int
	Agent         string
	Subquery      string
	Offered       []string
	Responded     bool
	Response      string
	Refused       string
	Resources     []string
	ResourceCalls []events.ResourceCalled
	Read          []string
	Written       []string
	// Cited are the fragments read that the response was drawn from.
	Cited []string
	// SubqueryLabel is the label of the subquery (the coordinator's
	// output); Label that of the response (the agent's output).
	SubqueryLabel events.Label
	Label         events.Label
}

// Query is the state of one query as its events tell it.
type Query struct {
	ID, User, Text string
	Channel, Reply string
	SubmittedAt    time.Time
	// AsOf is the valid time the query asks about (QuerySubmitted v2);
	// nil is now.
	AsOf             *time.Time
	Steps            []Step
	Done             bool
	Answer           string
	FailStage        string
	FailReason       string
	FragmentsRead    []string
	FragmentsWritten []string
	Agents           []string
	// Erased is true once the query's content was erased (its user was, or
	// it read an erased fragment): every text in it reads events.Erased.
	Erased bool
	// Label is the answer's.
	Label events.Label
	// Revision is that of the query's last event.
	Revision uint64
}

// Failed reports whether the query ended without an answer.
func (q Query) Failed() bool { return q.Done && q.FailStage != "" }

// Projection is the projection of the pipeline's events. It also remembers
// each user's answered queries, the conversation history the coordinator
// is shown.
//
// Memory is bounded when it retains a fixed number of finished queries:
// every unfinished query stays, and a finished one leaves memory once
// `retain` newer ones have finished. An evicted query is still in the log
// (its events are under queries/<user>/<id>): Rebuild makes it again.
type Projection struct {
	mu       sync.RWMutex
	revision uint64
	byID     map[string]*Query
	byUser   map[string][]string // answered query ids, oldest first
	done     map[string]chan struct{}
	retain   int      // finished queries kept; 0 keeps all
	finished []string // finished query ids, oldest first (when retain > 0)
}

// historyKept bounds each user's remembered answered queries (the
// coordinator is shown far fewer).
const historyKept = 64

// NewProjection returns an empty projection that keeps every query.
func NewProjection() *Projection { return NewBoundedProjection(0) }

// NewBoundedProjection returns an empty projection that keeps every
// unfinished query and the retain most recently finished ones (0: all).
func NewBoundedProjection(retain int) *Projection {
	return &Projection{byID: map[string]*Query{}, byUser: map[string][]string{}, done: map[string]chan struct{}{},
		retain: max(retain, 0)}
}

// Len is the number of queries in memory.
func (qs *Projection) Len() int {
	qs.mu.RLock()
	defer qs.mu.RUnlock()
	return len(qs.byID)
}

// finish records that q finished and evicts the oldest finished queries
// beyond the retention.
func (qs *Projection) finish(q *Query) {
	if ids := qs.byUser[q.User]; len(ids) > historyKept {
		qs.byUser[q.User] = append(ids[:0:0], ids[len(ids)-historyKept:]...)
	}
	if qs.retain == 0 {
		return
	}
	qs.finished = append(qs.finished, q.ID)
	for len(qs.finished) > qs.retain {
		delete(qs.byID, qs.finished[0])
		qs.finished[0] = ""
		qs.finished = qs.finished[1:]
	}
}

// Rebuild makes query id from its events (as the log holds them under
// queries/<user>/<id>), for a query evicted from memory.
func Rebuild(id string, recs []events.Record) (Query, bool) {
	p := NewProjection()
	for _, r := range recs {
		if err := p.Apply(r); err != nil {
			return Query{}, false
		}
	}
	return p.Get(id)
}

// Name implements projectors.Projection.
func (*Projection) Name() string { return "queries" }

// Apply implements projectors.Projection.
func (qs *Projection) Apply(r events.Record) error {
	qs.mu.Lock()
	defer qs.mu.Unlock()
	if r.Revision <= qs.revision {
		return nil
	}
	qs.revision = r.Revision
	switch r.Type {
	case events.TypeQuerySubmitted, events.TypeAgentSelected, events.TypeResourceCalled,
		events.TypeAgentResponded, events.TypeQueryAnswered, events.TypeQueryFailed:
	case events.TypeUserErased, events.TypeFragmentDeleted:
		return qs.applyErasure(r)
	default:
		return nil
	}
	p, err := r.Decode()
	if err != nil {
		return err
	}
	qs.apply(p, r)
	return nil
}

func (qs *Projection) apply(p events.Payload, r events.Record) {
	if s, ok := p.(*events.QuerySubmitted); ok {
		if qs.byID[s.ID] == nil {
			qs.byID[s.ID] = &Query{ID: s.ID, User: s.User, Text: s.Text, Channel: s.Channel, Reply: s.ReplySubject, SubmittedAt: r.Time, AsOf: s.AsOf, Revision: r.Revision}
		}
		return
	}
	q := qs.byID[queryID(p)]
	if q == nil || q.Done {
		return // an event of an unknown or finished query changes nothing
	}
	q.Revision = r.Revision
	switch p := p.(type) {
	case *events.AgentSelected:
		if p.Round == len(q.Steps)+1 {
			q.Steps = append(q.Steps, Step{Round: p.Round, Agent: p.Agent, Subquery: p.Subquery, Offered: p.Offered,
				SubqueryLabel: subqueryLabel(p, q.Steps)})
		}
	case *events.ResourceCalled:
		if st := q.step(p.Round); st != nil {
			st.ResourceCalls = append(st.ResourceCalls, *p)
		}
	case *events.AgentResponded:
		if st := q.step(p.Round); st != nil && !st.Responded {
			st.Responded, st.Response, st.Refused = true, p.Response, p.Refused
			st.Resources, st.Read, st.Written, st.Cited = p.Resources, p.FragmentsRead, p.FragmentsWritten, p.FragmentsCited
			st.Label = responseLabel(p, st.SubqueryLabel)
		}
	case *events.QueryAnswered:
		q.Done, q.Answer, q.Agents = true, p.Answer, p.Agents
		q.FragmentsRead, q.FragmentsWritten = p.FragmentsRead, p.FragmentsWritten
		q.Label = answerLabel(p, q.Steps)
		qs.byUser[q.User] = append(qs.byUser[q.User], q.ID)
	case *events.QueryFailed:
		q.Done, q.FailStage, q.FailReason = true, p.Stage, p.Reason
	}
	if q.Erased {
		q.erase() // an event after the erasure brings no content back
	}
	if ch := qs.done[q.ID]; q.Done && ch != nil {
		close(ch)
		delete(qs.done, q.ID)
	}
	if q.Done {
		qs.finish(q)
	}
}

func (q *Query) step(round int) *Step {
	if round < 1 || round > len(q.Steps) {
		return nil
	}
	return &q.Steps[round-1]
}

func queryID(p events.Payload) string {
	switch p := p.(type) {
	case *events.AgentSelected:
		return p.QueryID
	case *events.ResourceCalled:
		return p.QueryID
	case *events.AgentResponded:
		return p.QueryID
	case *events.QueryAnswered:
		return p.QueryID
	case *events.QueryFailed:
		return p.QueryID
	}
	return ""
}

// Get returns a copy of the query's state.
func (qs *Projection) Get(id string) (Query, bool) {
	qs.mu.RLock()
	defer qs.mu.RUnlock()
	q, ok := qs.byID[id]
	if !ok {
		return Query{}, false
	}
	return q.clone(), true
}

func (q *Query) clone() Query {
	c := *q
	c.Steps = append([]Step(nil), q.Steps...)
	return c
}

// Wait blocks until the query is answered or failed, or ctx ends; it
// returns the state at that moment and whether the query is done.
func (qs *Projection) Wait(ctx context.Context, id string) (Query, bool) {
	qs.mu.Lock()
	q, ok := qs.byID[id]
	if ok && q.Done {
		c := q.clone()
		qs.mu.Unlock()
		return c, true
	}
	ch := qs.done[id]
	if ch == nil {
		ch = make(chan struct{})
		qs.done[id] = ch
	}
	qs.mu.Unlock()
	select {
	case <-ch:
	case <-ctx.Done():
	}
	q2, _ := qs.Get(id)
	return q2, q2.Done
}

// History returns the user's answered queries, newest last, at most n.
func (qs *Projection) History(user string, n int) []Query {
	qs.mu.RLock()
	defer qs.mu.RUnlock()
	ids := qs.byUser[user]
	if len(ids) > n {
		ids = ids[len(ids)-n:]
	}
	out := make([]Query, 0, len(ids))
	for _, id := range ids {
		if q := qs.byID[id]; q != nil { // nil: evicted
			out = append(out, q.clone())
		}
	}
	return out
}

// Pending returns the queries submitted before cutoff that have not
// finished.
func (qs *Projection) Pending(cutoff time.Time) []Query {
	qs.mu.RLock()
	defer qs.mu.RUnlock()
	var out []Query
	for _, q := range qs.byID {
		if !q.Done && q.SubmittedAt.Before(cutoff) {
			out = append(out, q.clone())
		}
	}
	return out
}
