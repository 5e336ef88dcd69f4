package app_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/cmem/cmem/app"
	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/llm"
	"github.com/cmem/cmem/memory"
)

// Each scheme, round by round: who is asked next, what earlier answers the
// subquery shows, and that the subquery carries exactly their labels.
func TestCoordinationSchemesRoundByRound(t *testing.T) {
	agents := []llm.AgentCard{{ID: "a"}, {ID: "b"}, {ID: "c"}}
	turn := func(agent string) app.LabelledTurn {
		return app.LabelledTurn{Turn: llm.Turn{Agent: agent, Response: "from " + agent},
			Label: events.Label{Agents: []string{agent}, Resources: []string{"r" + agent}}}
	}
	type want struct {
		agent string
		shows []string // agents whose answers the subquery shows
	}
	for _, tc := range []struct {
		kind  string
		steps []want // round 1, 2, … then "" = aggregate
	}{
		{memory.CoordinationLayered, []want{{"a", nil}, {"b", nil}, {"c", nil}, {"a", []string{"a", "b", "c"}}, {}}},
		{memory.CoordinationDecentralized, []want{{"a", nil}, {"b", []string{"a"}}, {"c", []string{"b"}}, {}}},
		{memory.CoordinationSharedPool, []want{{"a", nil}, {"b", []string{"a"}}, {"c", []string{"a", "b"}}, {}}},
	} {
		t.Run(tc.kind, func(t *testing.T) {
			r := newRig(t, nil)
			world(t, r)
			if _, err := r.app.SetPolicy(context.Background(), admin, app.PolicyRequest{Target: memory.TargetCoordination, Kind: tc.kind}); err != nil {
				t.Fatal(err)
			}
			p, err := app.NewPipeline(r.app, app.PipelineConfig{MaxRounds: 8}, r.queries, nil)
			if err != nil {
				t.Fatal(err)
			}
			st := app.RoundState{Query: "q", MaxRounds: 8, Agents: agents}
			for i, w := range tc.steps {
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
				st.Turns = append(st.Turns, turn(as.Agent))
			}
		})
	}
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
