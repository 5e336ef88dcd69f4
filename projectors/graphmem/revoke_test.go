package graphmem_test

import (
	"context"
	"slices"
	"testing"

	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/projectors/access"
	"github.com/cmem/cmem/projectors/graphmem"
)

// answered runs one query of u0 answered by agent in one round, which
// called the resources in called.
func (w *world) answered(id, text, agent string, called ...string) {
	l := events.Union(events.Label{Agents: []string{agent}, Resources: called})
	w.emit(&events.QuerySubmitted{ID: id, User: "u0", Text: text, Channel: "http"},
		&events.AgentSelected{QueryID: id, User: "u0", Round: 1, Agent: agent, Subquery: text, Offered: w.agents,
			Label: &events.Label{Agents: []string{}, Resources: []string{}}},
		&events.AgentResponded{QueryID: id, User: "u0", Round: 1, Agent: agent, Subquery: text, Response: "answer to " + text,
			Resources: called, FragmentsRead: []string{}, FragmentsWritten: []string{}, Label: &l},
		&events.QueryAnswered{QueryID: id, User: "u0", Answer: "answer to " + text, Rounds: 1, Agents: []string{agent},
			FragmentsRead: []string{}, FragmentsWritten: []string{}, Label: &l})
}

func (w *world) read(agent, text string) graphmem.Result {
	w.t.Helper()
	reader := access.Reader{User: "u0", Agent: agent}
	res, err := w.mem.Retrieve(context.Background(), graphmem.Request{User: "u0", Agent: agent, Query: text,
		Admit: func(l events.Label) bool {
			return w.graph.Admits(reader, access.Provenance{Agents: l.Agents, Resources: l.Resources}, access.Latest()).OK
		}})
	if err != nil {
		w.t.Fatal(err)
	}
	return res
}

func roles(r graphmem.Result) []string {
	var out []string
	for _, in := range r.Insights {
		out = append(out, in.Role+":"+in.Approach)
	}
	return out
}

// TestRevokeHidesInsightsRestingOnTheEdge: an insight is shown only while
// every query it rests on could be; revoking the agent→resource edge one
// of them used hides it (and that query), the other insight stays, and
// granting the edge back shows it again.
func TestRevokeHidesInsightsRestingOnTheEdge(t *testing.T) {
	w := newWorld(t, 1)
	w.emit(&events.UserAgentGranted{User: "u0", Agent: "a0"}, &events.UserAgentGranted{User: "u0", Agent: "a1"},
		&events.AgentResourceGranted{Agent: "a0", Resource: "r0"})
	w.answered("q1", "flights to paris", "a0", "r0")
	w.answered("q2", "flights to paris tomorrow", "a1")
	before := w.read("a0", "flights to paris")
	if got, want := roles(before), []string{"a0:r0", "a1:memory"}; !slices.Equal(got, want) {
		t.Fatalf("insights before the revoke: %v, want %v (the reading agent's role first)", got, want)
	}
	if len(before.Queries) != 2 || len(before.Interactions) != 4 {
		t.Fatalf("before the revoke: %d queries and %d interactions, want 2 and 4", len(before.Queries), len(before.Interactions))
	}
	w.emit(&events.AgentResourceRevoked{Agent: "a0", Resource: "r0"})
	after := w.read("a0", "flights to paris")
	if got, want := roles(after), []string{"a1:memory"}; !slices.Equal(got, want) {
		t.Fatalf("insights after the revoke: %v, want %v", got, want)
	}
	for _, q := range after.Queries {
		if q.ID == "q1" {
			t.Fatal("q1 used r0 and is shown after a0 lost r0")
		}
	}
	for _, it := range after.Interactions {
		if it.Query == "q1" && it.Kind == graphmem.KindResponded {
			t.Fatalf("q1's response is shown after a0 lost r0: %+v", it)
		}
	}
	w.emit(&events.AgentResourceGranted{Agent: "a0", Resource: "r0"})
	if got := roles(w.read("a0", "flights to paris")); len(got) != 2 {
		t.Fatalf("after the grant back: %v, want both insights again", got)
	}
}
