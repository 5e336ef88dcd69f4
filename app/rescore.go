package app

import (
	"cmp"
	"context"
	"slices"
	"strings"
	"time"

	"github.com/cmem/cmem/embedding"
	"github.com/cmem/cmem/projectors/access"
	"github.com/cmem/cmem/projectors/memory"
	"github.com/cmem/cmem/vectors"
)

// The second stage of a memory view, measured on LoCoMo's conversations
// 0–4 only (the held-out 5–9 were not used to choose it; see
// docs/memory.md for the figures):
//
//	score'  = hybrid + SoftWeight·prior(n)·soft
//	score'' = score' + EpisodeWeight·(sum of the best EpisodeTop score' of the episode)/EpisodeTop
//	                 + NeighbourWeight·(best score' of the hits observed within NeighbourWindow)
//
// soft is embedding.SoftMatch of the query's words with the fragment's:
// one vector per text averages a short question's words away against a
// long answer's, while word-by-word matching finds "camped" in "our
// family camping trip" and "kids" in "my children". An episode is a run
// of fragments each observed within EpisodeGap of the one before (a
// conversation session, a batch of notes): a fragment of an episode that
// other hits match is more likely about the question than an equal one
// alone (the cluster hypothesis), which helps most where the evidence is
// spread over turns. Its neighbours, the hits of its episode observed
// within NeighbourWindow of it, are its context: the answer to a question
// is the turn after it, and shares few of its words.
//
// Both stages see only the hits the store returned under the reader's
// filter and the view re-checked: a score never depends on a fragment the
// reader may not see, and a neighbour is one only if it is such a hit.
const (
	SoftWeight      = 0.8
	EpisodeWeight   = 0.3
	EpisodeTop      = 3
	EpisodeGap      = time.Hour
	NeighbourWeight = 0.1
	NeighbourWindow = time.Minute
)

// rescoreFetch is how many hits a view asks the store for when it
// rescores k: the second stage can only raise what the first returned,
// and a neighbour only counts when it is among them.
func rescoreFetch(k int) int { return min(max(4*k, 80), 4*MaxK) }

// rescored re-orders the admitted items of a view by the second stage,
// with the neighbours of its best hits that the store did not return
// (rescore_near.go), and sets each hit's Score in byID to its new score.
// Without word vectors (a hashing or remote embedder) items are returned
// unchanged.
func (a *App) rescored(ctx context.Context, user, agent string, f vectors.Filter, q vectors.Query, now access.Point,
	items []memory.Surfaced, byID map[string]vectors.Hit) []memory.Surfaced {
	tm := embedding.TermerOf(a.embedder)
	if tm == nil || len(items) == 0 {
		return items
	}
	qt := tm.Terms(q.Text)
	hits := make([]timedHit, len(items))
	for i, it := range items {
		soft := embedding.SoftMatch(qt, embedding.Distinct(tm.Terms(vectors.EmbedText(it.Key, it.Value))))
		hits[i] = timedHit{id: it.ID, score: float64(byID[it.ID].Score) + SoftWeight*vectors.LengthPrior(vectors.ValueTokens(it.Value))*soft}
		// ObservedAt is the write's time when the writer gave none, so
		// fragments written together (a batch) are one episode too.
		if info, ok := a.fragments.Get(it.ID); ok && !info.ObservedAt.IsZero() {
			hits[i].at = info.ObservedAt.UTC()
		}
	}
	score := withContext(hits)
	seeds := asking(ranked(items, score)[:min(NearSeeds, len(items))])
	for _, n := range a.nearby(ctx, user, agent, f, q, now, seeds, byID) {
		if _, in := byID[n.ID]; in {
			score[n.ID] = max(score[n.ID], NearWeight*score[n.seed])
			continue
		}
		byID[n.ID] = n.Hit
		score[n.ID] = NearWeight * score[n.seed]
		items = append(items, memory.Surfaced{ID: n.ID, Key: n.Key, Value: n.Value})
	}
	out := ranked(items, score)
	for _, it := range out {
		h := byID[it.ID]
		h.Score = float32(score[it.ID])
		byID[it.ID] = h
	}
	return out
}

// ranked is items best first by score, ties by ascending id.
func ranked(items []memory.Surfaced, score map[string]float64) []memory.Surfaced {
	out := slices.Clone(items)
	slices.SortStableFunc(out, func(x, y memory.Surfaced) int {
		if c := cmp.Compare(score[y.ID], score[x.ID]); c != 0 {
			return c
		}
		return strings.Compare(x.ID, y.ID)
	})
	return out
}
