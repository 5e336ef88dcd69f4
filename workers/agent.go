package workers

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	"github.com/cmem/cmem/app"
	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/llm"
	"github.com/cmem/cmem/query"
)

// RunAgent answers one AgentSelected: the agent reads its memory view first,
// calls resources in R(a,now) only when memory does not cover the subquery,
// and answers; the response is written to memory through the write
// policies, with the provenance of what was read and called.
func (p *Pipeline) RunAgent(ctx context.Context, rec events.Record) error {
	q, ok, err := p.load(ctx, rec)
	if err != nil || !ok || q.Done {
		return err
	}
	pl, err := rec.Decode()
	if err != nil {
		return err
	}
	sel := pl.(*events.AgentSelected)
	if sel.Round != len(q.Steps) || q.Steps[sel.Round-1].Responded {
		return nil // not this query's current round, or already answered
	}
	ctx, cancel := context.WithTimeout(ctx, p.cfg.StageTimeout)
	defer cancel()
	step := func(parts ...string) string {
		return events.StepID(append([]string{q.ID, strconv.Itoa(sel.Round)}, parts...)...)
	}
	respondedID := step("responded")
	resp := &events.AgentResponded{QueryID: q.ID, User: q.User, Round: sel.Round, Agent: sel.Agent, Subquery: sel.Subquery,
		Resources: []string{}, FragmentsRead: []string{}, FragmentsWritten: []string{}}

	now, err := p.Memory.AuthzFence(ctx)
	if err != nil {
		return err
	}
	if !p.Access.CanInvoke(q.User, sel.Agent, now) {
		// Revoked between the coordinator's choice and this turn: the agent
		// does not run, and the coordinator routes around it.
		resp.Refused = fmt.Sprintf("agent %s is no longer available to %s", sel.Agent, q.User)
		return p.emit(ctx, q, rec.ID, respondedID, resp)
	}
	user := app.Identity{ID: q.User}
	view, err := p.Memory.MemoryView(ctx, user, app.ViewRequest{Agent: sel.Agent, Query: sel.Subquery,
		KUser: p.cfg.KUser, KCross: p.cfg.KCross, QueryID: q.ID, StepID: step("read")})
	if err != nil {
		return p.stageError(ctx, q, rec.ID, "agent", err)
	}
	memory := make([]llm.MemoryItem, 0, len(view.Private)+len(view.Shared))
	for _, f := range append(append([]app.Fragment{}, view.Private...), view.Shared...) {
		resp.FragmentsRead = append(resp.FragmentsRead, f.ID)
		memory = append(memory, llm.MemoryItem{ID: f.ID, Key: f.Key, Value: f.Value, Tier: f.Tier, Score: *f.Score})
	}
	agent, _ := p.Access.Agent(sel.Agent)
	caller := p.newCaller(q, sel, now, rec.ID, step)
	ans, err := p.LLM.Answer(ctx, llm.AnswerRequest{AgentID: sel.Agent, SystemPrompt: agent.SystemPrompt, Subquery: sel.Subquery,
		Memory: memory, Tools: caller.offer(), Call: caller.call, MaxToolCalls: p.cfg.MaxToolCalls, Coverage: p.cfg.Coverage})
	if err != nil {
		return p.stageError(ctx, q, rec.ID, "agent", err)
	}
	resp.Response, resp.ResourceCalls, resp.Resources = ans.Response, caller.count(), caller.used()
	if len(resp.Resources) > 0 && resp.Response != "" {
		// New knowledge came in through a resource: remember it. A turn
		// answered from memory alone adds nothing memory does not hold, and
		// one whose every call failed learned nothing worth keeping.
		if resp.FragmentsWritten, err = p.remember(ctx, user, sel, resp, respondedID, step); err != nil {
			return err
		}
	}
	return p.emit(ctx, q, rec.ID, respondedID, resp)
}

// remember writes the response to both tiers through their write policies.
// A policy refusal or a permission lost mid-turn skips that tier.
func (p *Pipeline) remember(ctx context.Context, user app.Identity, sel *events.AgentSelected, resp *events.AgentResponded,
	respondedID string, step func(...string) string) ([]string, error) {
	written := []string{}
	for _, tier := range []string{events.TierPrivate, events.TierShared} {
		w, err := p.Memory.WriteFragment(ctx, user, app.WriteRequest{
			Agent: sel.Agent, Resources: resp.Resources, Key: sel.Subquery, Value: resp.Response, Tier: tier,
			DerivedFrom: resp.FragmentsRead, QueryID: sel.QueryID, SourceEvent: respondedID, StepID: step("write", tier),
		})
		switch {
		case errors.Is(err, app.ErrPolicyRefused), errors.Is(err, app.ErrForbidden):
			p.Logger.Info("memory write skipped", "query", sel.QueryID, "tier", tier, "reason", err)
		case err != nil:
			return nil, err
		default:
			for _, f := range w.Fragments {
				written = append(written, f.ID)
			}
		}
	}
	return written, nil
}

// stageError ends the query on a provider failure and leaves anything else
// (the log or a projection unavailable) to be retried.
func (p *Pipeline) stageError(ctx context.Context, q query.Query, causation, stage string, err error) error {
	if errors.Is(err, llm.ErrProvider) {
		return p.providerFailure(ctx, q, causation, stage, err)
	}
	if errors.Is(err, app.ErrForbidden) || errors.Is(err, app.ErrInvalid) {
		return p.fail(context.WithoutCancel(ctx), q, causation, stage, err.Error())
	}
	return err
}

func rawArgs(args json.RawMessage) map[string]any {
	m := map[string]any{}
	if err := json.Unmarshal(args, &m); err != nil {
		m = map[string]any{"_raw": string(args)}
	}
	return m
}
