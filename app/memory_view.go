package app

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/cmem/cmem/domain"
	"github.com/cmem/cmem/embedding"
	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/projectors/access"
	"github.com/cmem/cmem/projectors/memory"
	"github.com/cmem/cmem/vectors"
)

// MaxK bounds k_user and k_cross.
const MaxK = 100

// ViewRequest asks for the memory view of the caller through Agent.
type ViewRequest struct {
	Agent       string
	Query       string
	KUser       int
	KCross      int
	MinRevision uint64
	QueryID     string
	// StepID, set by a worker, makes the MemoryRead's event id stable so a
	// step run twice records one read.
	StepID string
	// MinScore is the relevance floor. A view ranks by a fused score
	// (vectors.HybridScore: cosine to the fragment's key and value, and
	// BM25 over them), and the floor holds each side on its own scale: a
	// hit is returned when its cosine reaches the floor or its lexical
	// relevance (vectors.LexicalRelevance, BM25 mapped to [0, 1)) does, so
	// a fragment that shares the query's rare words is not dropped for a
	// weak vector, nor one that means the same in other words for sharing
	// none. nil = the embedder's RelevanceFloor (0.2 for the semantic
	// embedder, 0.01 for hashing, none for an OpenAI-compatible endpoint).
	MinScore *float32
	// AsOf asks for the facts valid at a time (observed then, and the
	// current version of their fact then; see current.go); nil is now.
	AsOf *time.Time
}

// minScore is req's relevance floor (see ViewRequest.MinScore).
func (a *App) minScore(req ViewRequest) (float32, error) {
	floor := a.embedder.RelevanceFloor()
	if req.MinScore != nil {
		floor = *req.MinScore
	}
	if floor < -1 || floor > 1 {
		return 0, fmt.Errorf("%w: min_score must be within -1..1", domain.ErrInvalid)
	}
	return floor, nil
}

// ViewAnswer is a memory view: Revision is where its MemoryRead event was
// stored; GraphRevision the access-graph revision it was checked against.
type ViewAnswer struct {
	Revision      uint64            `json:"revision"`
	GraphRevision uint64            `json:"graph_revision"`
	Private       []domain.Fragment `json:"private"`
	Shared        []domain.Fragment `json:"shared"`
}

// MemoryView serves π_read(u,a,now): the top KUser fragments of the caller's
// private tier and the top KCross of the shared tier, both inside M(u,a,now)
// on graphs that include every acknowledged revoke, ranked by the hybrid
// score of the query against the fragment's key and value
// (vectors.HybridScore, which is each fragment's Score; the shared tier is
// re-ordered by the learned retriever when there is one, see package
// rerank), above the relevance floor (MinScore), shaped by the read
// policy, and recorded as a MemoryRead event.
func (a *App) MemoryView(ctx context.Context, by domain.Identity, req ViewRequest) (ViewAnswer, error) {
	if by.ID == AdminID {
		return ViewAnswer{}, fmt.Errorf("%w: the bootstrap admin is not a user and has no memory view", domain.ErrForbidden)
	}
	if err := events.CheckID(req.Agent); err != nil {
		return ViewAnswer{}, fmt.Errorf("%w: agent: %w", domain.ErrInvalid, err)
	}
	if req.KUser < 0 || req.KCross < 0 || req.KUser > MaxK || req.KCross > MaxK {
		return ViewAnswer{}, fmt.Errorf("%w: k_user and k_cross must be within 0..%d", domain.ErrInvalid, MaxK)
	}
	if _, err := a.minScore(req); err != nil {
		return ViewAnswer{}, err
	}
	snap, err := a.Snapshot(ctx, req.MinRevision)
	if err != nil {
		return ViewAnswer{}, err
	}
	return a.viewAt(ctx, by, req, snap)
}

// viewAt serves a memory view on a snapshot the caller took: a pipeline
// stage reads memory on the snapshot it decides on.
func (a *App) viewAt(ctx context.Context, by domain.Identity, req ViewRequest, snap Snapshot) (ViewAnswer, error) {
	minScore, err := a.minScore(req)
	if err != nil {
		return ViewAnswer{}, err
	}
	if err := a.waitOn(ctx, a.viewFresh, req.MinRevision); err != nil {
		return ViewAnswer{}, err
	}
	now, clock := snap.Point(), snap.Clock
	if !a.view.CanInvoke(by.ID, req.Agent, now) {
		return ViewAnswer{}, fmt.Errorf("%w: %s may not invoke agent %s", domain.ErrForbidden, by.ID, req.Agent)
	}
	vecs, err := a.embedder.Embed(ctx, []string{req.Query})
	if err != nil {
		return ViewAnswer{}, fmt.Errorf("%w: embed query: %w", domain.ErrUnavailable, err)
	}
	pol := a.policies.Resolve(memory.TargetRead, by.ID, req.Agent, clock)
	allowedA, allowedR := a.view.Agents(by.ID, now), a.view.Resources(req.Agent, now)
	allAgents, allResources := a.view.AgentIDs(), a.view.ResourceIDs()
	ans := ViewAnswer{GraphRevision: snap.Revision}
	var trace events.PolicyTrace
	for _, tier := range []struct {
		name string
		k    int
		out  *[]domain.Fragment
	}{{events.TierPrivate, a.viewK(req.KUser, req.AsOf), &ans.Private}, {events.TierShared, a.viewK(req.KCross, req.AsOf), &ans.Shared}} {
		f := vectors.NewFilter(tier.name, by.ID, allowedA, allAgents, allowedR, allResources)
		q := vectors.Query{Text: req.Query, Vector: vecs[0]}
		if *tier.out, trace, err = a.tierView(ctx, by.ID, req.Agent, q, f, tier.k, minScore, now, pol); err != nil {
			return ViewAnswer{}, err
		}
	}
	ans.Private = a.currentOnly(by.ID, req.Agent, now, req.AsOf, ans.Private, req.KUser)
	ans.Shared = a.currentOnly(by.ID, req.Agent, now, req.AsOf, ans.Shared, req.KCross)
	a.withLineage(by.ID, req.Agent, now, ans.Private, ans.Shared)
	a.withTime(ans.Private, ans.Shared)
	read := &events.MemoryRead{User: by.ID, Agent: req.Agent, Query: req.Query, QueryID: req.QueryID,
		Private: ids(ans.Private), Shared: ids(ans.Shared), GraphRevision: snap.Revision, KUser: req.KUser, KCross: req.KCross, Policy: trace}
	// The read's time is the clock its snapshot was judged at: the audit
	// judges it at (graph_revision, time), exactly as it was served.
	if ans.Revision, err = a.appendAt(ctx, by, read, req.StepID, clock); err != nil {
		return ViewAnswer{}, err
	}
	return ans, nil
}

// tierView searches one tier, re-checks every hit against the graphs (the
// store's filter is an optimisation, never the enforcement) and applies the
// read policy.
func (a *App) tierView(ctx context.Context, user, agent string, q vectors.Query, f vectors.Filter, k int, minScore float32,
	now access.Point, pol memory.Policy) ([]domain.Fragment, events.PolicyTrace, error) {
	out := []domain.Fragment{}
	if k == 0 {
		return out, pol.Trace(), nil
	}
	fetch := k
	if pol.Kind != "simple" || a.reranks(f.Tier) {
		fetch = min(4*k, 4*MaxK) // a keyword filter may drop many; the re-ranker may raise one
	}
	rescores := embedding.TermerOf(a.embedder) != nil
	if rescores {
		fetch = max(fetch, rescoreFetch(k))
	}
	hits, err := a.search(ctx, q, f, fetch)
	if err != nil {
		return nil, events.PolicyTrace{}, fmt.Errorf("%w: vector view: %w", domain.ErrUnavailable, err)
	}
	items := make([]memory.Surfaced, 0, len(hits))
	byID := make(map[string]vectors.Hit, len(hits))
	for _, h := range hits {
		if h.Cosine < minScore && h.Lexical < minScore {
			continue // below the relevance floor on both sides: not an answer to this query
		}
		if !a.mayRead(user, agent, f, h.Tier, h.User, h.Agents, h.Resources, now) {
			viewPostFilterDropped.Inc()
			slog.Warn("vector view returned an inadmissible fragment; dropped", "fragment", h.ID, "user", user, "agent", agent)
			continue
		}
		items = append(items, memory.Surfaced{ID: h.ID, Key: h.Key, Value: h.Value})
		byID[h.ID] = h
	}
	if rescores {
		items = a.rescored(ctx, user, agent, f, q, now, items, byID)
	}
	lessons := 0
	if a.reranks(f.Tier) {
		items, lessons = a.reranked(user, agent, q.Vector, items, byID, now)
	}
	shaped, trace, err := memory.ApplyRead(ctx, pol, items, a.llm)
	if err != nil {
		return nil, trace, providerUnavailable(err)
	}
	if lessons > 0 {
		trace.Notes = append(trace.Notes, fmt.Sprintf("re-ranked with what %d admitted memories taught", lessons))
	}
	for _, s := range shaped[:min(k, len(shaped))] {
		h := byID[s.ID]
		fr := fromView(h.Fragment)
		fr.Key, fr.Value = s.Key, s.Value
		score := h.Score
		fr.Score = &score
		out = append(out, fr)
	}
	return out, trace, nil
}

func ids(fs []domain.Fragment) []string {
	out := make([]string, len(fs))
	for i, f := range fs {
		out[i] = f.ID
	}
	return out
}

// search asks the view for the best k fragments of f for q: by the hybrid
// score when the store ranks by one (every backend does), else by cosine,
// which then is also each hit's Cosine.
func (a *App) search(ctx context.Context, q vectors.Query, f vectors.Filter, k int) ([]vectors.Hit, error) {
	if hs, ok := a.store.(vectors.HybridSearcher); ok {
		return hs.HybridSearch(ctx, q, f, k)
	}
	hits, err := a.store.Search(ctx, q.Vector, f, k)
	for i := range hits {
		hits[i].Cosine = hits[i].Score
	}
	return hits, err
}
