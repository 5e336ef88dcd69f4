package app

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	"github.com/cmem/cmem/domain"
	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/llm"
	"github.com/cmem/cmem/projectors/query"
)

// AgentTurnCmd asks for the turn the coordinator assigned in Selected;
// Revision and Cause are those of the AgentSelected event.
type AgentTurnCmd struct {
	Selected events.AgentSelected
	Cause    string
	Revision uint64
}

// RunAgentTurn answers one assignment on one permission snapshot: the agent
// reads its memory view (and its graph memory, when GraphItems > 0) first, calls resources in R(a,now) only when memory
// does not cover the subquery (each call re-checked when it is made), and
// answers. The response's label is the union of everything the agent was
// shown — its subquery's label, every fragment it read, every resource it
// called — and a response that brought in new knowledge is written to
// memory with that label as provenance.
func (p *Pipeline) RunAgentTurn(ctx context.Context, cmd AgentTurnCmd) error {
	sel := cmd.Selected
	q, ok, err := p.load(ctx, sel.QueryID, cmd.Revision)
	if err != nil || !ok || q.Done {
		return err
	}
	if sel.Round != len(q.Steps) || q.Steps[sel.Round-1].Responded {
		return nil // not this query's current round, or already answered
	}
	subquery := q.Steps[sel.Round-1].SubqueryLabel
	ctx, cancel := context.WithTimeout(ctx, p.cfg.StageTimeout)
	defer cancel()
	step := func(parts ...string) string {
		return events.StepID(append([]string{q.ID, strconv.Itoa(sel.Round)}, parts...)...)
	}
	respondedID := step("responded")
	snap, err := p.app.Snapshot(ctx, 0)
	if err != nil {
		return err
	}
	resp := &events.AgentResponded{QueryID: q.ID, User: q.User, Round: sel.Round, Agent: sel.Agent, Subquery: sel.Subquery,
		Resources: []string{}, FragmentsRead: []string{}, FragmentsWritten: []string{}, GraphRevision: snap.Revision}
	if !p.app.view.CanInvoke(q.User, sel.Agent, snap.Point()) {
		// Revoked between the coordinator's choice and this turn: the agent
		// does not run, and the coordinator routes around it.
		resp.Refused = fmt.Sprintf("agent %s is no longer available to %s", sel.Agent, q.User)
		resp.Label = &events.Label{Agents: []string{}, Resources: []string{}}
		return p.emit(ctx, q, cmd.Cause, respondedID, resp)
	}
	user := domain.Identity{ID: q.User}
	search := sel.Subquery
	if governed(sel.Agent) { // a scope's reader's words and its notes' (query_expand.go)
		search = expandedQuery(search)
	}
	view, err := p.app.viewAt(ctx, user, ViewRequest{Agent: sel.Agent, Query: search,
		KUser: p.cfg.KUser, KCross: p.cfg.KCross, QueryID: q.ID, StepID: step("read"), AsOf: q.AsOf}, snap)
	if err != nil {
		return p.stageError(ctx, q, cmd.Cause, "agent", err)
	}
	shown := []events.Label{{Agents: []string{sel.Agent}}, subquery}
	items := make([]llm.MemoryItem, 0, len(view.Private)+len(view.Shared))
	frags := append(append([]domain.Fragment{}, view.Private...), view.Shared...)
	if governed(sel.Agent) { // a scope's reader is never shown what only confirms a guess (outcome_probe.go)
		frags = unproposed(frags, q.Text+"\n"+sel.Subquery, p.app.scopes())
	}
	for _, f := range frags {
		resp.FragmentsRead = append(resp.FragmentsRead, f.ID)
		items = append(items, llm.MemoryItem{ID: f.ID, Key: f.Key, Value: f.Value, Tier: f.Tier, Score: *f.Score, ObservedAt: f.ObservedAt})
		shown = append(shown, events.Label{Agents: f.Agents, Resources: f.Resources, Fragments: []string{f.ID}})
	}
	graph, graphLabels, err := p.graphContext(ctx, user, &sel, snap)
	if err != nil {
		return p.stageError(ctx, q, cmd.Cause, "agent", err)
	}
	shown = append(shown, graphLabels...)
	agent, _ := p.app.view.Agent(sel.Agent)
	calls := p.newCaller(q, &sel, snap, cmd.Cause, step)
	ans, err := p.app.llm.Answer(ctx, llm.AnswerRequest{AgentID: sel.Agent, SystemPrompt: agent.SystemPrompt, Subquery: sel.Subquery,
		Memory: items, Graph: graph, Tools: calls.offer(), Call: calls.call, MaxToolCalls: p.cfg.MaxToolCalls, Coverage: p.cfg.Coverage,
		Facts: governed(sel.Agent)}) // a scope's reader asks for its state
	if ierr := calls.failed(); ierr != nil {
		// The log failed under a tool call: whatever the provider made of
		// it, the turn runs again (its events' ids make that harmless).
		return ierr
	}
	if err != nil {
		return p.stageError(ctx, q, cmd.Cause, "agent", err)
	}
	label := events.Union(append(shown, events.Label{Resources: calls.ran()})...)
	resp.Response, resp.ResourceCalls, resp.Resources, resp.Label = ans.Response, calls.count(), calls.used(), &label
	resp.FragmentsCited = citedOf(ans.Cited, resp.FragmentsRead)
	if worthRemembering(resp) && q.AsOf == nil {
		// (An answer about another time is not remembered: written now, it
		// would pass for the current version of its fact.)
		// New knowledge came in through a resource: remember it.
		key, value := memoryEntry(sel.Subquery, ans)
		if resp.FragmentsWritten, err = p.remember(ctx, user, &sel, resp, key, value, respondedID, step); err != nil {
			return err
		}
	}
	return p.emit(ctx, q, cmd.Cause, respondedID, resp)
}

// stageError ends the query on a provider failure or a request no retry
// can fix, and leaves anything else (the log or a projection unavailable)
// to be retried.
func (p *Pipeline) stageError(ctx context.Context, q query.Query, causation, stage string, err error) error {
	if errors.Is(err, llm.ErrProvider) {
		return p.providerFailure(ctx, q, causation, stage, err)
	}
	if errors.Is(err, domain.ErrForbidden) || errors.Is(err, domain.ErrInvalid) {
		return p.fail(context.WithoutCancel(ctx), q, causation, stage, err.Error())
	}
	return err
}
