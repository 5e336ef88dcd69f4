package app_test

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/cmem/cmem/app"
	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/llm"
	"github.com/cmem/cmem/projectors/memory"
)

// schemeStep is what a scheme should plan in one round: the agent asked
// and the agents whose answers its subquery shows ("" agent: aggregate).
type schemeStep struct {
	agent string
	shows []string
}

// Each scheme, round by round: who is asked next, what earlier answers the
// subquery shows, and that the subquery carries exactly their labels. A
// turn in hidden is not deliverable (as after a revoke): it is never shown.
func TestCoordinationSchemesRoundByRound(t *testing.T) {
	for _, tc := range []struct {
		name, kind string
		config     string
		hidden     int // round whose turn the user may no longer see (0: none)
		steps      []schemeStep
	}{
		{"layered", memory.CoordinationLayered, `{}`, 0,
			[]schemeStep{{"a", nil}, {"b", nil}, {"c", nil}, {"a", []string{"a", "b", "c"}}, {}}},
		{"layered, a first-layer turn revoked", memory.CoordinationLayered, `{}`, 2,
			[]schemeStep{{"a", nil}, {"b", nil}, {"c", nil}, {"a", []string{"a", "c"}}, {}}},
		{"decentralized", memory.CoordinationDecentralized, `{}`, 0,
			[]schemeStep{{"a", nil}, {"b", []string{"a"}}, {"c", []string{"a", "b"}}, {}}},
		{"decentralized, two passes", memory.CoordinationDecentralized, `{"rounds": 5}`, 0,
			[]schemeStep{{"a", nil}, {"b", []string{"a"}}, {"c", []string{"a", "b"}}, {"a", []string{"b", "c"}}, {"b", []string{"a", "c"}}, {}}},
		{"decentralized, a message revoked", memory.CoordinationDecentralized, `{"rounds": 4}`, 2,
			[]schemeStep{{"a", nil}, {"b", []string{"a"}}, {"c", []string{"a"}}, {"a", []string{"c"}}, {}}},
		{"shared pool", memory.CoordinationSharedPool, `{}`, 0,
			[]schemeStep{{"a", nil}, {"b", []string{"a"}}, {"c", []string{"a", "b"}}, {}}},
		{"shared pool, two passes", memory.CoordinationSharedPool, `{"rounds": 4}`, 1,
			[]schemeStep{{"a", nil}, {"b", nil}, {"c", []string{"b"}}, {"a", []string{"b", "c"}}, {}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			runScheme(t, nil, tc.kind, tc.config, tc.hidden, tc.steps)
		})
	}
}

// Expert participants (seed 004 §5) are the agents the coordinator picks
// for the query one after another (here c, then a; b never), not every
// agent of A(u,t); they take their turns in A(u,t)'s order.
func TestExpertParticipantsAreTheCoordinatorsPicks(t *testing.T) {
	picks := &pickSpy{order: []string{"c", "a"}}
	for _, kind := range []string{memory.CoordinationLayered, memory.CoordinationDecentralized, memory.CoordinationSharedPool} {
		t.Run(kind, func(t *testing.T) {
			steps := map[string][]schemeStep{
				memory.CoordinationLayered:       {{"a", nil}, {"c", nil}, {"a", []string{"a", "c"}}, {}},
				memory.CoordinationDecentralized: {{"a", nil}, {"c", []string{"a"}}, {}},
				memory.CoordinationSharedPool:    {{"a", nil}, {"c", []string{"a"}}, {}},
			}[kind]
			runScheme(t, picks, kind, `{"participants": "expert"}`, 0, steps)
		})
	}
}

// pickSpy's coordinator picks the first agent of order still offered, and
// stops when none is.
type pickSpy struct {
	llm.Provider
	order []string
}

func (s *pickSpy) Coordinate(_ context.Context, req llm.CoordinateRequest) (llm.Decision, error) {
	for _, id := range s.order {
		if slices.ContainsFunc(req.Agents, func(a llm.AgentCard) bool { return a.ID == id }) {
			return llm.Decision{Agent: id, Subquery: req.Query}, nil
		}
	}
	return llm.Decision{Stop: true}, nil
}

// Capabilities: pickSpy reads no reach and all history, as a model may.
func (*pickSpy) Capabilities() llm.Capabilities { return llm.Capabilities{ReadsHistory: true} }

func runScheme(t *testing.T, provider llm.Provider, kind, config string, hidden int, steps []schemeStep) {
	t.Helper()
	agents := []llm.AgentCard{{ID: "a"}, {ID: "b"}, {ID: "c"}}
	r := newRig(t, provider)
	world(t, r)
	if _, err := r.app.SetPolicy(context.Background(), admin, app.PolicyRequest{Target: memory.TargetCoordination, Kind: kind, Config: json.RawMessage(config)}); err != nil {
		t.Fatal(err)
	}
	p := r.pipeline(t, app.PipelineConfig{MaxRounds: 8})
	st := app.RoundState{Query: "q", MaxRounds: 8, Agents: agents}
	for i, w := range steps {
		st.Round = i + 1
		plan, err := p.SchemeFor("alice").Next(context.Background(), st)
		if err != nil {
			t.Fatal(err)
		}
		if w.agent == "" {
			if len(plan.Assignments) != 0 {
				t.Fatalf("round %d: %+v, want the answer aggregated", st.Round, plan)
			}
			return
		}
		if len(plan.Assignments) != 1 || plan.Assignments[0].Agent != w.agent {
			t.Fatalf("round %d: %+v, want %s", st.Round, plan, w.agent)
		}
		as := plan.Assignments[0]
		var shown []string
		for _, a := range []string{"a", "b", "c"} {
			if strings.Contains(as.Subquery, "from "+a) {
				shown = append(shown, a)
			}
		}
		if !slices.Equal(shown, w.shows) || !slices.Equal(as.Label.Agents, nonNil(w.shows)) {
			t.Fatalf("round %d: subquery %q shows %v with label %v, want %v", st.Round, as.Subquery, shown, as.Label, w.shows)
		}
		st.Consulted = append(st.Consulted, as.Agent)
		if st.Round != hidden {
			st.Turns = append(st.Turns, app.LabelledTurn{Turn: llm.Turn{Agent: as.Agent, Response: "from " + as.Agent},
				Round: st.Round, Label: events.Label{Agents: []string{as.Agent}, Resources: []string{"r" + as.Agent}}})
		}
	}
	t.Fatal("the scheme did not aggregate within the steps given")
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
