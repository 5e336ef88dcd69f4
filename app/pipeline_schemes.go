package app

import (
	"context"
	"encoding/json"
	"slices"
	"strings"

	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/llm"
	"github.com/cmem/cmem/projectors/memory"
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
	// expert: only the agents relevant to the query (seed 004 §5, "multi
	// expert"); otherwise every agent the user may invoke (all-domain).
	expert bool
	// rounds bounds the rounds; 0 = one per participant.
	rounds int
}

// participants is the scheme's agents this query, in A(u,t)'s order. All
// domains: every agent in A(u,t). Expert: the agents the coordinator picks
// for the query from scratch, one after another, each time from A(u,t)
// without those it already picked, until it stops (at most MaxRounds) —
// the agents whose domain concerns the query, whichever provider judges
// it. The coordinator is shown only the query and the agents'
// specializations (not their Reach, which changes from round to round as
// agents serve), so the choice carries no label and is the same every
// round; it is recomputed on each round's A(u,t), so a revoked agent
// leaves the team at once.
func (t team) participants(ctx context.Context, st RoundState) ([]string, error) {
	offered := make([]string, 0, len(st.Agents))
	left := make([]llm.AgentCard, 0, len(st.Agents))
	for _, a := range st.Agents {
		offered = append(offered, a.ID)
		left = append(left, llm.AgentCard{ID: a.ID, Description: a.Description})
	}
	if !t.expert {
		return offered, nil
	}
	picked := map[string]bool{}
	for len(left) > 0 && len(picked) < st.MaxRounds {
		dec, err := t.llm.Coordinate(ctx, llm.CoordinateRequest{Query: st.Query, Agents: left, Round: 1, MaxRounds: st.MaxRounds})
		if err != nil {
			return nil, err
		}
		i := slices.IndexFunc(left, func(a llm.AgentCard) bool { return a.ID == dec.Agent })
		if dec.Stop || i < 0 {
			break
		}
		picked[dec.Agent] = true
		left = slices.Delete(left, i, i+1)
	}
	return slices.DeleteFunc(offered, func(id string) bool { return !picked[id] }), nil
}

// budget is how many rounds the scheme runs: the configured rounds, or
// one per agent of the query's team — the participants now and those
// already consulted, so that a participant revoked mid-query does not
// take a remaining one's turn away.
func (t team) budget(parts []string, st RoundState) int {
	r := len(parts)
	for _, a := range slices.Compact(slices.Sorted(slices.Values(st.Consulted))) {
		if !slices.Contains(parts, a) {
			r++
		}
	}
	if t.rounds > 0 {
		r = t.rounds
	}
	return min(r, st.MaxRounds)
}

// turn is who speaks this round in a scheme where participants take
// turns (Decentralized, SharedPool): the participants in order, round
// after round, within the budget. ok is false when nobody does (no
// participant, the budget spent, or err).
func (t team) turn(ctx context.Context, st RoundState) (next string, ok bool, err error) {
	parts, err := t.participants(ctx, st)
	if err != nil || len(parts) == 0 {
		return "", false, err
	}
	done := len(st.Consulted)
	if done >= t.budget(parts, st) {
		return "", false, nil
	}
	return parts[done%len(parts)], true, nil
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
// query alone (layer one: each is shown the query only, so its answer
// carries no other agent's label); then the first participant refines
// with every first-layer answer the user may still see (layer two), and
// the answer is aggregated. Layer one takes at most MaxRounds−1 rounds so
// that layer two always runs; an agent that appears twice among the
// consulted marks layer two as done.
type Layered struct{ team }

// Next implements Scheme.
func (l Layered) Next(ctx context.Context, st RoundState) (Plan, error) {
	parts, err := l.participants(ctx, st)
	if err != nil || len(parts) == 0 {
		return Plan{}, err
	}
	done := len(st.Consulted)
	if done >= st.MaxRounds || len(slices.Compact(slices.Sorted(slices.Values(st.Consulted)))) < done {
		return Plan{}, nil // out of rounds, or layer two has run
	}
	if done < st.MaxRounds-1 || done == 0 {
		for _, a := range parts {
			if !slices.Contains(st.Consulted, a) {
				return assign(a, st.Query, events.Union()), nil
			}
		}
	}
	sub, label := withTurns(st.Query, "First-layer answers:", st.Turns)
	return assign(parts[0], sub, label), nil
}

// Decentralized is the scheme in which agents address each other
// directly: participants take turns for a bounded number of rounds, and
// each is handed the query and every message the other agents sent since
// its own last turn (all of them address all others), among those the
// user may still see.
type Decentralized struct{ team }

// Next implements Scheme.
func (d Decentralized) Next(ctx context.Context, st RoundState) (Plan, error) {
	next, ok, err := d.turn(ctx, st)
	if !ok {
		return Plan{}, err
	}
	// The messages addressed to next: the other agents' turns after its
	// own last round (Turns holds only deliverable turns).
	last := 0
	for r, a := range st.Consulted {
		if a == next {
			last = r + 1
		}
	}
	var inbox []LabelledTurn
	for _, t := range st.Turns {
		if t.Agent != next && t.Round > last {
			inbox = append(inbox, t)
		}
	}
	sub, label := withTurns(st.Query, "Messages from the other agents:", inbox)
	return assign(next, sub, label), nil
}

// SharedPool is the shared-pool scheme: every answer goes to a pool that
// every participant reads at each step; participants take turns, each shown
// the query and the whole pool (every earlier turn the user may still
// see, its own included).
type SharedPool struct{ team }

// Next implements Scheme.
func (s SharedPool) Next(ctx context.Context, st RoundState) (Plan, error) {
	next, ok, err := s.turn(ctx, st)
	if !ok {
		return Plan{}, err
	}
	sub, label := withTurns(st.Query, "Shared pool:", st.Turns)
	return assign(next, sub, label), nil
}
