package app

import (
	"context"
	"errors"
	"strconv"

	"github.com/cmem/cmem/domain"
	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/llm"
	"github.com/cmem/cmem/projectors/memory"
)

// An agent turn's memory beyond its memory view: the graph memory it is
// shown, and the response it writes back.

// graphContext is the graph memory an agent turn is shown beside its
// memory view: at most GraphItems items, the insights first (the agent's
// role first among them), then the key interactions, each with its label,
// which the response's label takes in. None when GraphItems is 0 or no
// graph memory is configured.
func (p *Pipeline) graphContext(ctx context.Context, user domain.Identity, sel *events.AgentSelected, snap Snapshot) ([]llm.GraphItem, []events.Label, error) {
	if p.cfg.GraphItems == 0 || p.app.graph == nil {
		return nil, nil, nil
	}
	res, err := p.app.graphAt(ctx, user, GraphRequest{Agent: sel.Agent, Query: sel.Subquery, QueryID: sel.QueryID,
		StepID: events.StepID(sel.QueryID, strconv.Itoa(sel.Round), "graph")}, snap)
	if err != nil {
		return nil, nil, err
	}
	var items []llm.GraphItem
	var labels []events.Label
	add := func(id, kind, text string, l events.Label) {
		if len(items) < p.cfg.GraphItems {
			items = append(items, llm.GraphItem{ID: id, Kind: kind, Text: text})
			labels = append(labels, l)
		}
	}
	for _, in := range res.Insights {
		add(in.ID, "insight", in.Text, in.Provenance)
	}
	for _, it := range res.Interactions {
		add(it.ID, "interaction", it.Agent+" ("+it.Kind+"): "+it.Text, it.Provenance)
	}
	return items, labels, nil
}

// remember writes the response (as key and value, see memoryEntry) to both tiers through their write policies.
// Its provenance is the response's label (transitive, the default), or the
// agent and the resources it called itself under an explicit direct
// provenance policy. A policy refusal skips that tier.
func (p *Pipeline) remember(ctx context.Context, user domain.Identity, sel *events.AgentSelected, resp *events.AgentResponded,
	key, value, respondedID string, step func(...string) string) ([]string, error) {
	mode := p.app.policies.Resolve(memory.TargetProvenance, user.ID, sel.Agent, p.app.clockNow()).Kind
	prov := memory.Provenance{Agents: resp.Label.Agents, Resources: resp.Label.Resources}
	if mode == events.ProvenanceDirect {
		prov = memory.Derive(mode, sel.Agent, resp.Resources, nil)
	}
	written := []string{}
	for _, tier := range []string{events.TierPrivate, events.TierShared} {
		w, err := p.app.writeWith(ctx, user, WriteRequest{
			Agent: sel.Agent, Resources: prov.Resources, Key: key, Value: value, Tier: tier,
			DerivedFrom: resp.Label.Fragments, QueryID: sel.QueryID, SourceEvent: respondedID, StepID: step("write", tier),
		}, prov, mode)
		switch {
		case errors.Is(err, domain.ErrPolicyRefused):
			p.logger.Info("memory write skipped", "query", sel.QueryID, "tier", tier, "reason", err)
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
