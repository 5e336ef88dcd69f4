package app

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/llm"
	"github.com/cmem/cmem/projectors/query"
)

// CoordinateCmd asks the pipeline to move a query on: after it was
// submitted (AfterRound 0) or after round AfterRound's response. Revision
// is that of the triggering event and Cause its id.
type CoordinateCmd struct {
	QueryID    string
	AfterRound int
	Cause      string
	Revision   uint64
}

// Coordinate asks the scheme for the next round among A(u,now), or
// aggregates the turns into the answer. It decides on one permission
// snapshot. Running it twice for the same trigger changes nothing.
func (p *Pipeline) Coordinate(ctx context.Context, cmd CoordinateCmd) error {
	q, ok, err := p.load(ctx, cmd.QueryID, cmd.Revision)
	if err != nil || !ok || q.Done {
		return err
	}
	// Only the newest trigger moves the query on: a redelivered submission
	// after round 1, or a response of a round that is not the last, has
	// been acted on already.
	if cmd.AfterRound != len(q.Steps) || len(q.Steps) > 0 && !q.Steps[len(q.Steps)-1].Responded {
		return nil
	}
	next := len(q.Steps) + 1
	if time.Since(q.SubmittedAt) > p.cfg.QueryTimeout {
		return p.fail(ctx, q, cmd.Cause, "timeout", fmt.Sprintf("not finished within %s", p.cfg.QueryTimeout))
	}
	ctx, cancel := context.WithTimeout(ctx, p.cfg.StageTimeout)
	defer cancel()
	snap, err := p.app.Snapshot(ctx, 0)
	if err != nil {
		return err
	}
	offered := p.app.view.Agents(q.User, snap.Point())
	if next <= p.cfg.MaxRounds && len(offered) > 0 {
		st := p.roundState(q, next, offered, snap)
		if p.app.llm.Capabilities().ReadsReach {
			p.setReach(ctx, q, &st, snap)
		}
		plan, err := p.SchemeFor(q.User).Next(ctx, st)
		if err != nil {
			return p.providerFailure(ctx, q, cmd.Cause, "coordinator", err)
		}
		switch n := len(plan.Assignments); {
		case n > 1:
			return p.fail(ctx, q, cmd.Cause, "coordinator", fmt.Sprintf("the scheme planned %d agents for one round; this pipeline runs one", n))
		case n == 1:
			as := plan.Assignments[0]
			if !slices.Contains(offered, as.Agent) {
				return p.fail(ctx, q, cmd.Cause, "coordinator", fmt.Sprintf("chose agent %q, which is not in A(u,t)", as.Agent))
			}
			return p.emit(ctx, q, cmd.Cause, events.StepID(q.ID, strconv.Itoa(next), "selected"), &events.AgentSelected{
				QueryID: q.ID, User: q.User, Round: next, Agent: as.Agent, Subquery: as.Subquery, Offered: offered,
				Label: &as.Label, GraphRevision: snap.Revision,
			})
		}
	}
	return p.aggregate(ctx, q, cmd.Cause, snap)
}

// roundState is what a scheme is shown: A(u,t)'s specializations, and the
// turns and history whose labels the user may still see. A turn that used
// an agent or resource revoked since is not shown, so nothing derived from
// it enters the next subquery.
func (p *Pipeline) roundState(q query.Query, round int, offered []string, snap Snapshot) RoundState {
	st := RoundState{Query: q.Text, Round: round, MaxRounds: p.cfg.MaxRounds}
	for _, s := range q.Steps {
		st.Consulted = append(st.Consulted, s.Agent)
	}
	for _, id := range offered {
		a, _ := p.app.view.Agent(id)
		st.Agents = append(st.Agents, llm.AgentCard{ID: id, Description: a.Description})
	}
	st.Turns = p.deliverableTurns(q, snap)
	for _, h := range p.queries.History(q.User, p.cfg.HistoryItems) {
		if h.ID == q.ID || !p.app.delivers(q.User, h.Label, snap).OK {
			continue
		}
		st.History = append(st.History, LabelledHistory{HistoryItem: llm.HistoryItem{Query: h.Text, Answer: h.Answer}, Label: h.Label})
	}
	return st
}

// deliverableTurns is the responded, not refused turns of q whose labels
// the user may still see at snap.
func (p *Pipeline) deliverableTurns(q query.Query, snap Snapshot) []LabelledTurn {
	var out []LabelledTurn
	for _, s := range q.Steps {
		if !s.Responded || s.Refused != "" || s.Response == "" {
			continue
		}
		l := stepLabel(s)
		if p.app.delivers(q.User, l, snap).OK {
			out = append(out, LabelledTurn{Turn: llm.Turn{Agent: s.Agent, Subquery: s.Subquery, Response: s.Response}, Round: s.Round, Label: l})
		}
	}
	return out
}
