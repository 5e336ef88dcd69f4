package app

import (
	"context"

	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/llm"
)

// Scheme is a coordination scheme: given what a query has done so far, it
// plans the next round. It sees only what the pipeline hands it — the
// agents the user may invoke now and the turns and history still
// deliverable to the user, each with its label — and every assignment it
// returns carries the union of the labels of what it was shown, so an agent
// turn never needs to know which scheme chose it.
//
// Centralized is the paper's coordinator. Schemes in which several agents
// answer one round, or agents see each other's outputs, plug in here;
// the agent turn and delivery stay as they are.
type Scheme interface {
	Next(ctx context.Context, st RoundState) (Plan, error)
}

// RoundState is a scheme's input for one round.
type RoundState struct {
	Query     string
	Round     int
	MaxRounds int
	// Agents is exactly A(u,t) at the stage's snapshot.
	Agents []llm.AgentCard
	// Consulted is the agent of every earlier round, in order, whether or
	// not its turn is still deliverable (only ids: no content).
	Consulted []string
	Turns     []LabelledTurn
	History   []LabelledHistory
}

// LabelledTurn is an earlier (agent, subquery, response) of this query and
// the label of its subquery and response together.
type LabelledTurn struct {
	llm.Turn
	Round int
	Label events.Label
}

// LabelledHistory is an earlier exchange of the user's conversation with
// the label of its answer.
type LabelledHistory struct {
	llm.HistoryItem
	Label events.Label
}

// Assignment is one agent asked one subquery; Label is the subquery's.
type Assignment struct {
	Agent    string
	Subquery string
	Label    events.Label
}

// Plan is a scheme's decision: the assignments of the round, or none to
// aggregate the answer now.
type Plan struct {
	Assignments []Assignment
}

// Centralized is the paper's coordinator (000 §3.3, App. B.1): a model sees
// the query, the specializations of A(u,t), the turns so far and the
// history, and picks one agent and a subquery per round, or stops.
type Centralized struct {
	LLM llm.Provider
}

// Next implements Scheme.
func (c Centralized) Next(ctx context.Context, st RoundState) (Plan, error) {
	req := llm.CoordinateRequest{Query: st.Query, Agents: st.Agents, Round: st.Round, MaxRounds: st.MaxRounds}
	var shown []events.Label
	for _, t := range st.Turns {
		req.Turns = append(req.Turns, t.Turn)
		shown = append(shown, t.Label)
	}
	// A provider that does not read the history is not shown it, so its
	// decisions do not carry the history's labels.
	if c.LLM.Capabilities().ReadsHistory {
		for _, h := range st.History {
			req.History = append(req.History, h.HistoryItem)
			shown = append(shown, h.Label)
		}
	}
	dec, err := c.LLM.Coordinate(ctx, req)
	if err != nil || dec.Stop {
		return Plan{}, err
	}
	return Plan{Assignments: []Assignment{{Agent: dec.Agent, Subquery: dec.Subquery, Label: events.Union(shown...)}}}, nil
}
