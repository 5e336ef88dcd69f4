package app

import (
	"context"
	"github.com/cmem/cmem/domain"
	"strconv"

	"github.com/cmem/cmem/embedding"
	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/projectors/query"
)

// Reach's inputs: passages per knowledge base and memory hits per tier.
const (
	reachPassages = 3
	reachMemory   = 3
)

// searcher is a resource that can be searched without a resource call
// (a knowledge base's BM25 index).
type searcher interface {
	Search(query string, k int) []string
}

// setReach fills the Reach of every agent of st that has not served this
// query yet (see reachOf). It is called only for providers whose
// Capabilities say they read Reach.
func (p *Pipeline) setReach(ctx context.Context, q query.Query, st *RoundState, snap Snapshot) {
	used := map[string]bool{}
	for _, s := range q.Steps {
		used[s.Agent] = true
	}
	for i := range st.Agents {
		if !used[st.Agents[i].ID] {
			st.Agents[i].Reach = p.reachOf(ctx, q, st.Round, st.Agents[i].ID, snap)
		}
	}
}

// reachOf is llm.AgentCard.Reach for one offered agent: the highest cosine
// similarity, with the view's embedder, between the query and what the
// agent can answer from at snap — the descriptions of the resources in
// R(a,t), the top reachPassages passages of each of its knowledge bases,
// and the keys and values of the top memory hits admissible to (u,a)
// (read through the memory view, so M(u,a,t) is enforced and the read is
// recorded). It returns a number in [0,1] and never any of that text: the
// coordinator must not see content of an agent it has not chosen. 0 when
// nothing is reachable.
func (p *Pipeline) reachOf(ctx context.Context, q query.Query, round int, agent string, snap Snapshot) float32 {
	texts := []string{q.Text}
	for _, id := range p.app.view.Resources(agent, snap.Point()) {
		t, err := p.tool(id)
		if err != nil {
			continue
		}
		texts = append(texts, t.Description())
		if s, ok := t.(searcher); ok {
			texts = append(texts, s.Search(q.Text, reachPassages)...)
		}
	}
	view, err := p.app.viewAt(ctx, domain.Identity{ID: q.User}, ViewRequest{Agent: agent, Query: q.Text,
		KUser: reachMemory, KCross: reachMemory, QueryID: q.ID, StepID: events.StepID(q.ID, strconv.Itoa(round), "reach", agent), AsOf: q.AsOf}, snap)
	if err == nil {
		for _, f := range append(view.Private, view.Shared...) {
			texts = append(texts, f.Key, f.Value)
		}
	}
	vecs, err := p.app.embedder.Embed(ctx, texts)
	if err != nil || len(vecs) != len(texts) {
		return 0
	}
	var best float32
	for _, v := range vecs[1:] {
		best = max(best, embedding.Cosine(vecs[0], v))
	}
	return min(best, 1)
}
