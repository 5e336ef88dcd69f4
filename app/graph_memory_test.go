package app_test

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/cmem/cmem/app"
	"github.com/cmem/cmem/domain"
	"github.com/cmem/cmem/embedding/hashing"
	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/llm"
	"github.com/cmem/cmem/projectors/graphmem"
)

// newGraphRig is a rig with graph memory, fed by its log like the other
// projections.
func newGraphRig(t testing.TB, provider llm.Provider) *rig {
	t.Helper()
	g, err := graphmem.New(graphmem.Config{}, hashing.New(64))
	if err != nil {
		t.Fatal(err)
	}
	r := newRig(t, provider, func(d *app.Deps) { d.Graph = g })
	r.log.apply = append(r.log.apply, g.Apply)
	r.log.flush = append(r.log.flush, g.Flush)
	return r
}

func queryIDs(a app.GraphMemoryAnswer) []string {
	var out []string
	for _, q := range a.Queries {
		out = append(out, q.ID)
	}
	return out
}

// TestGraphMemoryHidesWhatARevokeTook: alice's past query answered by x
// with rx, and its insight, are in her graph memory through x until x
// loses rx; her query answered by y from memory stays; bob, who may
// invoke y too, reads his own graph and never alice's.
func TestGraphMemoryHidesWhatARevokeTook(t *testing.T) {
	r := newGraphRig(t, nil)
	world(t, r)
	ctx := context.Background()
	alice := domain.Identity{ID: "alice"}
	recordQuery(t, r, "q1", "alice", "what is the ceo salary", "9 million", events.Label{Agents: []string{"x"}, Resources: []string{"rx"}})
	recordQuery(t, r, "q2", "alice", "what is the ceo salary band", "top band", events.Label{Agents: []string{"y"}, Resources: []string{}})
	before, err := r.app.GraphMemory(ctx, alice, app.GraphRequest{Agent: "x", Query: "ceo salary"})
	if err != nil {
		t.Fatal(err)
	}
	if got := queryIDs(before); !slices.Contains(got, "q1") || !slices.Contains(got, "q2") || len(before.Insights) != 2 {
		t.Fatalf("before the revoke: queries %v, insights %+v", got, before.Insights)
	}
	if before.Insights[0].Role != "x" || before.Insights[0].Provenance.Resources[0] != "rx" {
		t.Fatalf("x's insight, resting on rx, must come first: %+v", before.Insights)
	}
	// The read is an event naming what was served, with its label.
	envs := r.log.envelopes()
	last, err := envs[len(envs)-1].Decode()
	if err != nil {
		t.Fatal(err)
	}
	if gr, ok := last.(*events.GraphRead); !ok || len(gr.Queries) != len(before.Queries) || !slices.Contains(gr.Label.Resources, "rx") ||
		int(before.Revision) != len(envs) {
		t.Fatalf("the read was not recorded as a GraphRead with its label: %#v (revision %d)", last, before.Revision)
	}
	if _, err := r.app.SetGrant(ctx, admin, app.Edge{From: "x", To: "rx"}, false); err != nil {
		t.Fatal(err)
	}
	after, err := r.app.GraphMemory(ctx, alice, app.GraphRequest{Agent: "x", Query: "ceo salary"})
	if err != nil {
		t.Fatal(err)
	}
	if got := queryIDs(after); slices.Contains(got, "q1") || !slices.Contains(got, "q2") {
		t.Fatalf("after x lost rx: queries %v, want q2 only", got)
	}
	for _, in := range after.Insights {
		if slices.Contains(in.Supporting, "q1") {
			t.Fatalf("an insight resting on q1 (x with rx) is shown after x lost rx: %+v", in)
		}
	}
	for _, it := range after.Interactions {
		if it.Query == "q1" {
			t.Fatalf("q1's utterance is shown after x lost rx: %+v", it)
		}
	}
	recordQuery(t, r, "q3", "bob", "what is the ceo salary range", "no idea", events.Label{Agents: []string{"y"}, Resources: []string{}})
	bob, err := r.app.GraphMemory(ctx, domain.Identity{ID: "bob"}, app.GraphRequest{Agent: "y", Query: "ceo salary"})
	if err != nil {
		t.Fatal(err)
	}
	if got := queryIDs(bob); !slices.Equal(got, []string{"q3"}) || len(bob.Insights) != 1 || bob.Insights[0].Supporting[0] != "q3" {
		t.Fatalf("bob must read his own graph memory and nothing of alice's: queries %v, insights %+v", got, bob.Insights)
	}
}

func TestGraphMemoryRefusesBadRequests(t *testing.T) {
	r := newGraphRig(t, nil)
	world(t, r)
	ctx := context.Background()
	for _, c := range []struct {
		by   domain.Identity
		req  app.GraphRequest
		want error
	}{
		{domain.Identity{ID: "alice"}, app.GraphRequest{Agent: "", Query: "q"}, domain.ErrInvalid},
		{domain.Identity{ID: "alice"}, app.GraphRequest{Agent: "x", Query: "  "}, domain.ErrInvalid},
		{domain.Identity{ID: "bob"}, app.GraphRequest{Agent: "x", Query: "q"}, domain.ErrForbidden},
		{admin, app.GraphRequest{Agent: "x", Query: "q"}, domain.ErrForbidden},
	} {
		if _, err := r.app.GraphMemory(ctx, c.by, c.req); !errors.Is(err, c.want) {
			t.Errorf("%s %+v: %v, want %v", c.by.ID, c.req, err, c.want)
		}
	}
	plain := newRig(t, nil)
	world(t, plain)
	if _, err := plain.app.GraphMemory(ctx, domain.Identity{ID: "alice"}, app.GraphRequest{Agent: "x", Query: "q"}); !errors.Is(err, domain.ErrUnavailable) {
		t.Errorf("without graph memory: %v, want ErrUnavailable", err)
	}
}

// selected appends the submission of sel's query (its text the subquery)
// and sel, and returns sel's revision.
func (r *rig) selected(t *testing.T, sel events.AgentSelected) uint64 {
	t.Helper()
	var rev uint64
	for _, pl := range []events.Payload{&events.QuerySubmitted{ID: sel.QueryID, User: sel.User, Text: sel.Subquery, Channel: "http"}, &sel} {
		e, err := events.New(events.Meta{Source: "t", Actor: sel.User, CorrelationID: sel.QueryID}, pl)
		if err != nil {
			t.Fatal(err)
		}
		if rev, err = r.log.Append(context.Background(), e, false); err != nil {
			t.Fatal(err)
		}
	}
	return rev
}

// answerSpy records what an agent is shown.
type answerSpy struct {
	llm.Provider
	seen []llm.AnswerRequest
}

func (s *answerSpy) Answer(ctx context.Context, req llm.AnswerRequest) (llm.AnswerResult, error) {
	s.seen = append(s.seen, req)
	return s.Provider.Answer(ctx, req)
}

// Capabilities: answerSpy reads no reach and all history, as a model may
// (not the capabilities of the provider it wraps).
func (*answerSpy) Capabilities() llm.Capabilities { return llm.Capabilities{ReadsHistory: true} }

// TestAgentTurnCarriesGraphMemoryLabels: an agent shown graph memory
// derived from another agent's work answers with a label that names that
// agent, so its response is withheld from whoever loses it.
func TestAgentTurnCarriesGraphMemoryLabels(t *testing.T) {
	spy := &answerSpy{Provider: newOffline(t)}
	r := newGraphRig(t, spy)
	world(t, r)
	ctx := context.Background()
	recordQuery(t, r, "old", "alice", "lyon food tips", "bouchons", events.Label{Agents: []string{"y"}, Resources: []string{}})
	p := r.pipeline(t, app.PipelineConfig{GraphItems: 4})
	sel := events.AgentSelected{QueryID: "new", User: "alice", Round: 1, Agent: "x", Subquery: "lyon food tips", Offered: []string{"x", "y"},
		Label: &events.Label{Agents: []string{}, Resources: []string{}}}
	if err := p.RunAgentTurn(ctx, app.AgentTurnCmd{Selected: sel, Revision: r.selected(t, sel)}); err != nil {
		t.Fatal(err)
	}
	if len(spy.seen) != 1 || len(spy.seen[0].Graph) == 0 {
		t.Fatalf("the agent was shown no graph memory: %+v", spy.seen)
	}
	q, _ := r.queries.Get("new")
	if l := q.Steps[0].Label; !slices.Contains(l.Agents, "y") {
		t.Fatalf("x's response label %+v does not name y, whose work it was shown", l)
	}
	// Off by default: the same turn without GraphItems shows none.
	p0 := r.pipeline(t, app.PipelineConfig{})
	sel.QueryID = "new2"
	if err := p0.RunAgentTurn(ctx, app.AgentTurnCmd{Selected: sel, Revision: r.selected(t, sel)}); err != nil {
		t.Fatal(err)
	}
	if len(spy.seen) != 2 || len(spy.seen[1].Graph) != 0 {
		t.Fatalf("GraphItems 0 showed graph memory: %+v", spy.seen[len(spy.seen)-1].Graph)
	}
}
