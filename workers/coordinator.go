package workers

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/cmem/cmem/access"
	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/llm"
	"github.com/cmem/cmem/memory"
	"github.com/cmem/cmem/query"
)

// Coordinate runs after a query is submitted and after every agent
// response: it asks the provider for the next agent among A(u,now), or
// aggregates the turns into the answer. Running it twice for the same
// trigger changes nothing.
func (p *Pipeline) Coordinate(ctx context.Context, rec events.Record) error {
	q, ok, err := p.load(ctx, rec)
	if err != nil || !ok || q.Done {
		return err
	}
	// Only the newest trigger moves the query on: a redelivered
	// QuerySubmitted after round 1, or a response of a round that is not
	// the last, has been acted on already.
	if triggerRound(rec) != len(q.Steps) || len(q.Steps) > 0 && !q.Steps[len(q.Steps)-1].Responded {
		return nil
	}
	next := len(q.Steps) + 1
	if time.Since(q.SubmittedAt) > p.cfg.QueryTimeout {
		return p.fail(ctx, q, rec.ID, "timeout", fmt.Sprintf("not finished within %s", p.cfg.QueryTimeout))
	}
	ctx, cancel := context.WithTimeout(ctx, p.cfg.StageTimeout)
	defer cancel()
	now, err := p.Memory.AuthzFence(ctx)
	if err != nil {
		return err
	}
	offered := p.Access.Agents(q.User, now)
	cards := make([]llm.AgentCard, 0, len(offered))
	for _, id := range offered {
		a, _ := p.Access.Agent(id)
		cards = append(cards, llm.AgentCard{ID: id, Description: a.Description})
	}
	if next <= p.cfg.MaxRounds && len(cards) > 0 {
		used := map[string]bool{}
		for _, s := range q.Steps {
			used[s.Agent] = true
		}
		for i := range cards {
			if !used[cards[i].ID] {
				cards[i].Reach = p.reachOf(ctx, q, next, cards[i].ID, now)
			}
		}
		dec, err := p.LLM.Coordinate(ctx, llm.CoordinateRequest{
			Query: q.Text, Agents: cards, Turns: turns(q), History: p.history(q, now, offered), Round: next, MaxRounds: p.cfg.MaxRounds,
		})
		if err != nil {
			return p.providerFailure(ctx, q, rec.ID, "coordinator", err)
		}
		if !dec.Stop {
			if !slices.Contains(offered, dec.Agent) {
				return p.fail(ctx, q, rec.ID, "coordinator", fmt.Sprintf("chose agent %q, which is not in A(u,t)", dec.Agent))
			}
			return p.emit(ctx, q, rec.ID, events.StepID(q.ID, strconv.Itoa(next), "selected"), &events.AgentSelected{
				QueryID: q.ID, User: q.User, Round: next, Agent: dec.Agent, Subquery: dec.Subquery, Offered: offered,
			})
		}
	}
	return p.aggregate(ctx, q, rec.ID, offered)
}

func triggerRound(rec events.Record) int {
	if rec.Type != events.TypeAgentResponded {
		return 0
	}
	p, err := rec.Decode()
	if err != nil {
		return -1
	}
	return p.(*events.AgentResponded).Round
}

// aggregate merges the turns into the answer, once. With no answer from
// any agent it says so and names the agents considered.
func (p *Pipeline) aggregate(ctx context.Context, q query.Query, causation string, considered []string) error {
	answered := []query.Step{}
	for _, s := range q.Steps {
		if s.Refused == "" && s.Response != "" {
			answered = append(answered, s)
		}
	}
	answer := llm.NothingRelevantAnswer(considered)
	if len(answered) > 0 {
		var err error
		q2 := q
		q2.Steps = answered
		if answer, err = p.LLM.Aggregate(ctx, llm.AggregateRequest{Query: q.Text, Turns: turns(q2)}); err != nil {
			return p.providerFailure(ctx, q, causation, "aggregator", err)
		}
	}
	var agents, read, written []string
	for _, s := range answered {
		agents = append(agents, s.Agent)
		read = append(read, s.Read...)
		written = append(written, s.Written...)
	}
	return p.emit(ctx, q, causation, events.StepID(q.ID, "answered"), &events.QueryAnswered{
		QueryID: q.ID, User: q.User, Answer: answer, Rounds: len(q.Steps),
		Agents: memory.SortedSet(agents), FragmentsRead: memory.SortedSet(read), FragmentsWritten: memory.SortedSet(written),
	})
}

// providerFailure ends the query when the provider failed for good; a
// cancelled stage (a worker shutting down) is retried instead.
func (p *Pipeline) providerFailure(ctx context.Context, q query.Query, causation, stage string, err error) error {
	if errors.Is(err, context.Canceled) && ctx.Err() != nil {
		return err
	}
	return p.fail(context.WithoutCancel(ctx), q, causation, stage, err.Error())
}

func (p *Pipeline) fail(ctx context.Context, q query.Query, causation, stage, reason string) error {
	return p.emit(ctx, q, causation, events.StepID(q.ID, "failed"), &events.QueryFailed{
		QueryID: q.ID, User: q.User, Stage: stage, Reason: reason,
	})
}

// load waits until this process's projections include rec and returns the
// state of rec's query.
func (p *Pipeline) load(ctx context.Context, rec events.Record) (query.Query, bool, error) {
	if err := p.Fresh.WaitFor(ctx, rec.Revision); err != nil {
		return query.Query{}, false, err
	}
	id := rec.CorrelationID
	q, ok := p.Queries.Get(id)
	return q, ok, nil
}

// history is the user's earlier answered queries whose provenance is still
// admissible: every agent that contributed is in A(u,now) and every
// resource used is usable now by one of them. History is memory too.
func (p *Pipeline) history(q query.Query, now access.Point, offered []string) []llm.HistoryItem {
	var out []llm.HistoryItem
	for _, h := range p.Queries.History(q.User, p.cfg.HistoryItems) {
		if h.ID == q.ID || !p.admissibleHistory(h, now, offered) {
			continue
		}
		out = append(out, llm.HistoryItem{Query: h.Text, Answer: h.Answer})
	}
	return out
}

func (p *Pipeline) admissibleHistory(h query.Query, now access.Point, offered []string) bool {
	agents, res := slices.Clone(h.Agents), []string{}
	for _, s := range h.Steps {
		res = append(res, s.Resources...)
	}
	for _, id := range h.FragmentsRead {
		if f, ok := p.Fragments.Get(id); ok {
			agents, res = append(agents, f.Agents...), append(res, f.Resources...)
		}
	}
	for _, a := range agents {
		if !slices.Contains(offered, a) {
			return false
		}
	}
	for _, r := range res {
		usable := false
		for _, a := range offered {
			usable = usable || p.Access.CanUse(a, r, now)
		}
		if !usable {
			return false
		}
	}
	return true
}

func turns(q query.Query) []llm.Turn {
	out := make([]llm.Turn, 0, len(q.Steps))
	for _, s := range q.Steps {
		if s.Responded {
			out = append(out, llm.Turn{Agent: s.Agent, Subquery: s.Subquery, Response: s.Response})
		}
	}
	return out
}
