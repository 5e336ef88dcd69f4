package app

import (
	"context"
	"encoding/json"
	"slices"
	"strings"

	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/llm"
	"github.com/cmem/cmem/memory"
)

// The coordination schemes of seed 004 §3.2 besides the paper's
// centralized coordinator. Each runs one agent per round (the pipeline's
// unit); what differs is who is asked next and what of the earlier turns
// they are shown. Whatever a scheme shows an agent, it passes on that
// content's labels with the subquery, so a cross-agent message carries its
// provenance like any other text.

// SchemeFor returns the coordination scheme in force for user now: the
// coordination policy of the user, or the deployment's (centralized when
// none is set).
func (p *Pipeline) SchemeFor(user string) Scheme {
	pol := p.app.policies.Resolve(memory.TargetCoordination, user, "", p.app.clockNow())
	var c memory.CoordinationConfig
	_ = json.Unmarshal(pol.Config, &c) // checked when the policy was set
	team := team{llm: p.app.llm, expert: c.Participants == "expert", rounds: c.Rounds}
	switch pol.Kind {
	case memory.CoordinationLayered:
		return Layered{team}
	case memory.CoordinationDecentralized:
		return Decentralized{team}
	case memory.CoordinationSharedPool:
		return SharedPool{team}
	}
	return Centralized{LLM: p.app.llm}
}

// team is what the non-centralized schemes share: who participates and for
// how many rounds.
type team struct {
	llm llm.Provider
	// expert: only the agent the coordinator picks first (seed 004 §5);
	// otherwise every agent the user may invoke (all-domain).
	expert bool
	// rounds bounds the rounds; 0 = one per participant.
	rounds int
}

// participants is the scheme's agents this query, in a stable order: the
// expert (the first agent consulted, or the coordinator's pick before any
// was), or every agent in A(u,t).
func (t team) participants(ctx context.Context, st RoundState) ([]string, error) {
	offered := make([]string, 0, len(st.Agents))
	for _, a := range st.Agents {
		offered = append(offered, a.ID)
	}
	if !t.expert {
		return offered, nil
	}
	if len(st.Consulted) > 0 {
		if slices.Contains(offered, st.Consulted[0]) {
			return st.Consulted[:1], nil
		}
		return nil, nil // the expert left A(u,t): nobody else speaks for it
	}
	dec, err := t.llm.Coordinate(ctx, llm.CoordinateRequest{Query: st.Query, Agents: st.Agents, Round: 1, MaxRounds: st.MaxRounds})
	if err != nil || dec.Stop {
		return nil, err
	}
	return []string{dec.Agent}, nil
}

// budget is how many rounds the scheme runs with n participants.
func (t team) budget(n, maxRounds int) int {
	r := n
	if t.rounds > 0 {
		r = t.rounds
	}
	return min(r, maxRounds)
}

// withTurns is the query followed by the given turns' responses, and the
// union of their labels: what a cross-agent message shows and carries.
func withTurns(query, heading string, turns []LabelledTurn) (string, events.Label) {
	if len(turns) == 0 {
		return query, events.Union()
	}
	var b strings.Builder
	b.WriteString(query + "\n\n" + heading + "\n")
	labels := make([]events.Label, 0, len(turns))
	for _, t := range turns {
		b.WriteString("- " + t.Agent + ": " + t.Response + "\n")
		labels = append(labels, t.Label)
	}
	return strings.TrimSpace(b.String()), events.Union(labels...)
}

func assign(agent, subquery string, label events.Label) Plan {
	return Plan{Assignments: []Assignment{{Agent: agent, Subquery: subquery, Label: label}}}
}

// Layered is the layered scheme: every participant first answers the
// query alone (layer one, which sees no other agent's output); then the
// first participant refines with every first-layer answer (layer two).
type Layered struct{ team }

// Next implements Scheme.
func (l Layered) Next(ctx context.Context, st RoundState) (Plan, error) {
	parts, err := l.participants(ctx, st)
	if err != nil || len(parts) == 0 {
		return Plan{}, err
	}
	first := min(len(parts), max(st.MaxRounds-1, 1))
	done := len(st.Consulted)
	if done < first {
		for _, a := range parts {
			if !slices.Contains(st.Consulted, a) {
				return assign(a, st.Query, events.Union()), nil
			}
		}
	}
	if done == first && done < st.MaxRounds {
		sub, label := withTurns(st.Query, "First-layer answers:", st.Turns)
		return assign(parts[0], sub, label), nil
	}
	return Plan{}, nil
}

// Decentralized is the scheme in which agents address each other
// directly: each participant in turn is handed the query and the previous
// agent's answer, for a bounded number of rounds.
type Decentralized struct{ team }

// Next implements Scheme.
func (d Decentralized) Next(ctx context.Context, st RoundState) (Plan, error) {
	parts, err := d.participants(ctx, st)
	if err != nil || len(parts) == 0 {
		return Plan{}, err
	}
	done := len(st.Consulted)
	if done >= d.budget(len(parts), st.MaxRounds) {
		return Plan{}, nil
	}
	var last []LabelledTurn
	if n := len(st.Turns); n > 0 && done > 0 && st.Turns[n-1].Agent == st.Consulted[done-1] {
		last = st.Turns[n-1:] // only a previous answer the user may still see is passed on
	}
	sub, label := withTurns(st.Query, "Message from the previous agent:", last)
	return assign(parts[done%len(parts)], sub, label), nil
}

// SharedPool is the shared-pool scheme: every answer goes to a pool that
// every participant reads at each step; participants take turns, each shown
// the query and the whole pool.
type SharedPool struct{ team }

// Next implements Scheme.
func (s SharedPool) Next(ctx context.Context, st RoundState) (Plan, error) {
	parts, err := s.participants(ctx, st)
	if err != nil || len(parts) == 0 {
		return Plan{}, err
	}
	done := len(st.Consulted)
	if done >= s.budget(len(parts), st.MaxRounds) {
		return Plan{}, nil
	}
	sub, label := withTurns(st.Query, "Shared pool:", st.Turns)
	return assign(parts[done%len(parts)], sub, label), nil
}
