package graphmem_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/cmem/cmem/embedding/hashing"
	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/projectors/access"
	"github.com/cmem/cmem/projectors/graphmem"
)

// world feeds the same random history to the access projection, graph
// memory and the reference model.
type world struct {
	t                        *testing.T
	rng                      *rand.Rand
	rev                      uint64
	graph                    *access.Graph
	mem                      *graphmem.Projection
	ref                      *refModel
	users, agents, resources []string
	nextQ, nextF             int
	log                      []events.Record
}

func newWorld(t *testing.T, seed uint64) *world {
	e := hashing.New(64)
	mem, err := graphmem.New(graphmem.Config{K: 2, M: 2, EdgeThreshold: 0.5, MaxQueries: 1000, MaxInsights: 1000, MaxInteractions: 1000}, e)
	if err != nil {
		t.Fatal(err)
	}
	w := &world{t: t, rng: rand.New(rand.NewPCG(seed, 7)), graph: access.NewGraph(), mem: mem,
		ref:   &refModel{k: 2, m: 2, threshold: 0.5, ua: map[string]bool{}, ar: map[string]bool{}},
		users: []string{"u0", "u1"}, agents: []string{"a0", "a1", "a2", "a3"}, resources: []string{"r0", "r1", "r2", "r3"}}
	for _, a := range w.agents {
		w.emit(&events.AgentRegistered{ID: a, Description: a})
	}
	for _, r := range w.resources {
		w.emit(&events.ResourceRegistered{ID: r, Kind: "http", Description: r})
	}
	return w
}

func (w *world) emit(ps ...events.Payload) {
	w.t.Helper()
	for _, p := range ps {
		w.rev++
		e, err := events.New(events.Meta{Source: "test", Actor: "test", Time: epoch.Add(time.Duration(w.rev))}, p)
		if err != nil {
			w.t.Fatal(err)
		}
		r := events.Record{Envelope: e, Revision: w.rev}
		w.log = append(w.log, r)
		if err := w.graph.Apply(r); err != nil {
			w.t.Fatal(err)
		}
		if err := w.mem.Apply(r); err != nil {
			w.t.Fatal(err)
		}
	}
	if err := w.mem.Flush(context.Background()); err != nil {
		w.t.Fatal(err)
	}
}

// toggle grants or revokes a random edge.
func (w *world) toggle() {
	if w.rng.IntN(2) == 0 {
		u, a := w.users[w.rng.IntN(len(w.users))], w.agents[w.rng.IntN(len(w.agents))]
		key := u + "/" + a
		if w.ref.ua[key] = !w.ref.ua[key]; w.ref.ua[key] {
			w.emit(&events.UserAgentGranted{User: u, Agent: a})
		} else {
			w.emit(&events.UserAgentRevoked{User: u, Agent: a})
		}
		return
	}
	a, r := w.agents[w.rng.IntN(len(w.agents))], w.resources[w.rng.IntN(len(w.resources))]
	key := a + "/" + r
	if w.ref.ar[key] = !w.ref.ar[key]; w.ref.ar[key] {
		w.emit(&events.AgentResourceGranted{Agent: a, Resource: r})
	} else {
		w.emit(&events.AgentResourceRevoked{Agent: a, Resource: r})
	}
}

func (w *world) label(agent string) events.Label {
	l := events.Label{Agents: append(pick(w.rng, w.agents, 2), agent), Resources: pick(w.rng, w.resources, 2)}
	if w.rng.IntN(4) == 0 {
		w.nextF++
		l.Fragments = []string{fmt.Sprintf("f%d", w.nextF)}
	}
	return events.Union(l)
}

// query runs a random query to its end.
func (w *world) query() {
	w.nextQ++
	q := &refQuery{id: fmt.Sprintf("q%03d", w.nextQ), user: w.users[w.rng.IntN(len(w.users))], text: sentence(w.rng)}
	w.emit(&events.QuerySubmitted{ID: q.id, User: q.user, Text: q.text, Channel: "http"})
	var answer []events.Label
	for round := 1; round <= w.rng.IntN(3)+1; round++ {
		s := refStep{agent: w.agents[w.rng.IntN(len(w.agents))], subquery: sentence(w.rng), refused: w.rng.IntN(6) == 0}
		s.subLabel = w.label(s.agent)
		w.emit(&events.AgentSelected{QueryID: q.id, User: q.user, Round: round, Agent: s.agent, Subquery: s.subquery,
			Offered: w.agents, Label: &s.subLabel})
		resp := &events.AgentResponded{QueryID: q.id, User: q.user, Round: round, Agent: s.agent, Subquery: s.subquery,
			Resources: []string{}, FragmentsRead: []string{}, FragmentsWritten: []string{}}
		if s.refused {
			resp.Refused, resp.Label = "revoked", &events.Label{Agents: []string{}, Resources: []string{}}
		} else {
			s.called = pick(w.rng, w.resources, 1)
			s.response = "answer " + sentence(w.rng)
			s.respLab = events.Union(s.subLabel, w.label(s.agent), events.Label{Resources: s.called})
			resp.Response, resp.Resources, resp.Label = s.response, s.called, &s.respLab
			answer = append(answer, s.respLab)
		}
		w.emit(resp)
		q.steps = append(q.steps, s)
	}
	if w.rng.IntN(4) == 0 {
		q.status, q.stage, q.reason = graphmem.StatusFailed, []string{"agent", "coordinator"}[w.rng.IntN(2)], "timed out"
		w.emit(&events.QueryFailed{QueryID: q.id, User: q.user, Stage: q.stage, Reason: q.reason})
	} else {
		l := events.Union(answer...)
		q.status = graphmem.StatusAnswered
		w.emit(&events.QueryAnswered{QueryID: q.id, User: q.user, Answer: "done", Rounds: len(q.steps), Agents: []string{},
			FragmentsRead: []string{}, FragmentsWritten: []string{}, Label: &l})
	}
	q.vec = embedOne(w.t, hashing.New(64), q.text)
	w.ref.queries = append(w.ref.queries, q)
}

// erase deletes a fragment some query was built from, listing that query
// or not (the projection must find it by the fragment either way).
func (w *world) erase() {
	var cands []*refQuery
	for _, q := range w.ref.queries {
		if !q.erased && slices.ContainsFunc(q.labels(), func(l events.Label) bool { return len(l.Fragments) > 0 }) {
			cands = append(cands, q)
		}
	}
	if len(cands) == 0 {
		return
	}
	q := cands[w.rng.IntN(len(cands))]
	var frag string
	for _, l := range q.labels() {
		if len(l.Fragments) > 0 {
			frag = l.Fragments[0]
		}
	}
	listed := []string{}
	if w.rng.IntN(2) == 0 {
		listed = []string{q.id}
	}
	for _, o := range w.ref.queries {
		if slices.ContainsFunc(o.labels(), func(l events.Label) bool { return slices.Contains(l.Fragments, frag) }) {
			o.erased = true
		}
	}
	w.emit(&events.FragmentDeleted{ID: frag, User: q.user, Derived: []string{}, Queries: listed})
}

// TestTraversalMatchesReferenceUnderChurn runs random histories of
// queries, grants, revokes and erasures, and after every step asks the
// traversal (through access.Admits on the access projection) and the
// naive reference model the same random questions: the queries,
// interactions and insights returned must be the same sets.
func TestTraversalMatchesReferenceUnderChurn(t *testing.T) {
	ctx := context.Background()
	hidden, shown, expanded, insights, erased := 0, 0, 0, 0, 0
	for seed := range uint64(4) {
		w := newWorld(t, seed)
		for step := range 300 {
			switch x := w.rng.IntN(10); {
			case x < 4:
				w.query()
			case x < 9:
				w.toggle()
			default:
				w.erase()
			}
			for range 3 {
				u, a, text := w.users[w.rng.IntN(2)], w.agents[w.rng.IntN(len(w.agents))], sentence(w.rng)
				reader := access.Reader{User: u, Agent: a}
				res, err := w.mem.Retrieve(ctx, graphmem.Request{User: u, Agent: a, Query: text, Admit: func(l events.Label) bool {
					ok := w.graph.Admits(reader, access.Provenance{Agents: l.Agents, Resources: l.Resources}, access.Latest()).OK
					if ok {
						shown++
					} else {
						hidden++
					}
					return ok
				}})
				if err != nil {
					t.Fatal(err)
				}
				want := w.ref.retrieve(u, a, embedOne(t, hashing.New(64), text))
				if g := got(res); !equalAnswers(g, want) {
					t.Fatalf("seed %d step %d: %s via %s asking %q:\n got  %+v\n want %+v", seed, step, u, a, text, g, want)
				}
				if len(res.Queries) > 2 {
					expanded++
				}
				insights += len(res.Insights)
			}
		}
		for _, q := range w.ref.queries {
			if q.erased {
				erased++
			}
		}
	}
	// The histories must have exercised both outcomes of the rule, the hop
	// expansion, insights and erasure.
	t.Logf("rule shown=%d hidden=%d; answers with hop expansion %d; insights returned %d; queries erased %d",
		shown, hidden, expanded, insights, erased)
	if hidden == 0 || shown == 0 || expanded == 0 || insights == 0 || erased == 0 {
		t.Fatal("the workload does not exercise every part of the traversal")
	}
}

func equalAnswers(a, b refAnswer) bool {
	return slices.Equal(a.queries, b.queries) && slices.Equal(a.interactions, b.interactions) && slices.Equal(a.insights, b.insights)
}
