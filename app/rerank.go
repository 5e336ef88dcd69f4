package app

import (
	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/projectors/access"
	"github.com/cmem/cmem/projectors/memory"
	"github.com/cmem/cmem/projectors/rerank"
	"github.com/cmem/cmem/vectors"
)

// Reranker re-orders the shared tier of a memory view with what the pool
// taught it (implemented by *rerank.Model).
type Reranker interface {
	// Active reports whether it has learned anything.
	Active() bool
	// Rerank orders cands for query, counting only what admits lets the
	// reader see, and says from how many lessons.
	Rerank(query []float32, model string, cands []rerank.Candidate, admits rerank.Admits) ([]rerank.Candidate, int)
}

// reranks reports whether a view of tier is re-ranked: the shared tier,
// once the re-ranker has learned something.
func (a *App) reranks(tier string) bool {
	return a.rerank != nil && tier == events.TierShared && a.rerank.Active()
}

// reranked orders a tier's admissible items by the learned retriever for
// the reader (user, agent) at now, and says how many lessons shaped the
// order. What it learned from an admitted fragment counts only if
// access.Admits admits that fragment to the reader: a ranking never
// depends on what its reader may not see.
func (a *App) reranked(user, agent string, vec []float32, items []memory.Surfaced, byID map[string]vectors.Hit,
	now access.Point) ([]memory.Surfaced, int) {
	cands := make([]rerank.Candidate, len(items))
	pos := make(map[string]memory.Surfaced, len(items))
	for i, it := range items {
		cands[i] = rerank.Candidate{ID: it.ID, Score: byID[it.ID].Score}
		pos[it.ID] = it
	}
	reader := access.Reader{User: user, Agent: agent}
	admits := func(p access.Provenance) bool { return a.view.Admits(reader, p, now).OK }
	ranked, lessons := a.rerank.Rerank(vec, a.embedder.Model(), cands, admits)
	out := make([]memory.Surfaced, 0, len(items))
	for _, c := range ranked {
		out = append(out, pos[c.ID])
	}
	return out, lessons
}
