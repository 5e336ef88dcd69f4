package app

import (
	"cmp"
	"slices"
	"strings"
	"time"

	"github.com/cmem/cmem/embedding"
	"github.com/cmem/cmem/projectors/memory"
	"github.com/cmem/cmem/vectors"
)

// The second stage of a memory view, measured on LoCoMo's conversations
// 0–4 only (evidence recall@10 0.635 → 0.687 over the same turns in
// process; the held-out 5–9 were not used to choose it):
//
//	score' = hybrid + SoftWeight·prior(n)·soft
//	score'' = score' + EpisodeWeight·(sum of the best EpisodeTop score' of the episode)/EpisodeTop
//
// soft is embedding.SoftMatch of the query's words with the fragment's:
// one vector per text averages a short question's words away against a
// long answer's, while word-by-word matching finds "camped" in "our
// family camping trip" and "kids" in "my children". An episode is the
// fragments observed at the same instant (a conversation session, a batch
// of notes): a fragment of an episode that other hits match is more
// likely about the question than an equal one alone (the cluster
// hypothesis), which helps most where the evidence is spread over turns.
//
// Both stages see only the hits the store returned under the reader's
// filter and the view re-checked: a score never depends on a fragment the
// reader may not see.
const (
	SoftWeight    = 0.8
	EpisodeWeight = 0.3
	EpisodeTop    = 3
)

// rescoreFetch is how many hits a view asks the store for when it
// rescores k: the second stage can only raise what the first returned.
func rescoreFetch(k int) int { return min(max(4*k, 40), 4*MaxK) }

// rescored re-orders the admitted items of a view by the second stage
// and sets each hit's Score in byID to its new score. Without word
// vectors (a hashing or remote embedder) items are returned unchanged.
func (a *App) rescored(query string, items []memory.Surfaced, byID map[string]vectors.Hit) []memory.Surfaced {
	tm := embedding.TermerOf(a.embedder)
	if tm == nil || len(items) == 0 {
		return items
	}
	qt := tm.Terms(query)
	score := make(map[string]float64, len(items))
	episodes := map[time.Time][]float64{}
	episodeOf := make(map[string]time.Time, len(items))
	for _, it := range items {
		h := byID[it.ID]
		soft := embedding.SoftMatch(qt, embedding.Distinct(tm.Terms(vectors.EmbedText(it.Key, it.Value))))
		s := float64(h.Score) + SoftWeight*vectors.LengthPrior(vectors.ValueTokens(it.Value))*soft
		score[it.ID] = s
		// ObservedAt is the write's time when the writer gave none, so
		// fragments written together (a batch) are one episode too.
		if info, ok := a.fragments.Get(it.ID); ok && !info.ObservedAt.IsZero() {
			at := info.ObservedAt.UTC()
			episodeOf[it.ID] = at
			episodes[at] = append(episodes[at], s)
		}
	}
	bonus := make(map[time.Time]float64, len(episodes))
	for at, ss := range episodes {
		slices.SortFunc(ss, func(x, y float64) int { return cmp.Compare(y, x) })
		var sum float64
		for _, s := range ss[:min(EpisodeTop, len(ss))] {
			sum += s
		}
		bonus[at] = EpisodeWeight * sum / EpisodeTop
	}
	for _, it := range items {
		at, ok := episodeOf[it.ID]
		if !ok {
			// Unknown to the registry (not yet projected): an episode of
			// its own, as a fragment alone at its instant is.
			score[it.ID] += EpisodeWeight * score[it.ID] / EpisodeTop
			continue
		}
		score[it.ID] += bonus[at]
	}
	out := slices.Clone(items)
	slices.SortStableFunc(out, func(x, y memory.Surfaced) int {
		if c := cmp.Compare(score[y.ID], score[x.ID]); c != 0 {
			return c
		}
		return strings.Compare(x.ID, y.ID)
	})
	for _, it := range out {
		h := byID[it.ID]
		h.Score = float32(score[it.ID])
		byID[it.ID] = h
	}
	return out
}
