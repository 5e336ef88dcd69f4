package textindex

import (
	"math"
	"slices"
	"strings"
)

type scratch struct {
	scores  []float64
	touched []int32
	// checked and ok are SearchIn's verdicts of its predicate, as bitsets
	// over slots, so the predicate is asked once per document.
	checked, ok []uint64
	// kept is one term's postings that the filter admits.
	kept []posting
	// terms is the query's distinct terms.
	terms []string
}

// Search returns up to k documents with a positive BM25 score for query,
// best first (ties by ID). allow, when not nil, is asked about every
// matching document and those it rejects are left out before the top k
// are taken, so the result is exactly the top k of the allowed documents.
// k ≤ 0 returns nil.
func (ix *Index) Search(query string, k int, allow func(id string) bool) []Hit {
	if k <= 0 {
		return nil
	}
	terms := ix.Tokens(query)
	unlock := ix.lockForSearch()
	defer unlock()
	if ix.live == 0 {
		return nil
	}
	sc := ix.getScratch()
	defer ix.scratch.Put(sc)
	scores, hots := sc.scores, ix.hot
	n := float64(ix.live)
	avg, k1, b := avgLen(ix.totalLen, ix.live), ix.cfg.K1, ix.cfg.B
	for _, t := range sc.distinct(terms) {
		tm := ix.lookup(t)
		if tm == nil {
			continue
		}
		df := float64(tm.df)
		idf := math.Log(1 + (n-df+0.5)/(df+0.5))
		for _, p := range tm.postings {
			h := hots[p.slot]
			if !h.alive() {
				continue
			}
			f := float64(p.tf)
			norm := k1 * (1 - b + b*float64(h.len)/avg)
			if scores[p.slot] == 0 {
				sc.touched = append(sc.touched, p.slot)
			}
			scores[p.slot] += idf * f * (k1 + 1) / (f + norm)
		}
	}
	var keep func(int32) bool
	if allow != nil {
		keep = func(s int32) bool { return allow(ix.slots[s].id) }
	}
	return ix.hits(ix.topOf(sc, k, keep, nil))
}

// avgLen is BM25's average document length of n documents of totalLen
// tokens in all; 1 when they are all empty, so no length divides by 0.
func avgLen(totalLen, n int) float64 {
	if totalLen == 0 {
		return 1
	}
	return float64(totalLen) / float64(n)
}

// getScratch returns a scratch sized for the index's slots, with zero
// scores and no touched slots.
func (ix *Index) getScratch() *scratch {
	sc := ix.scratch.Get().(*scratch)
	if len(sc.scores) < len(ix.slots) {
		sc.scores = make([]float64, len(ix.slots)+len(ix.slots)/4)
	}
	return sc
}

// distinct returns terms without repeats, in their first order (the order
// scores are summed in), in the scratch's buffer.
func (sc *scratch) distinct(terms []string) []string {
	out := sc.terms[:0]
	var seen map[string]bool
	if len(terms) > 64 { // a long query: a map beats the quadratic scan
		seen = make(map[string]bool, len(terms))
	}
	for _, t := range terms {
		switch {
		case seen != nil:
			if seen[t] {
				continue
			}
			seen[t] = true
		case slices.Contains(out, t):
			continue
		}
		out = append(out, t)
	}
	sc.terms = out
	return out
}

// scored is a slot and its score.
type scored struct {
	slot  int32
	score float64
}

// topOf takes the best k of the scored slots that keep (when not nil)
// admits, ties ordered by tie (AddDoc's documents) or by ID, and leaves
// the scratch clean for the next search. A slot scoring under the k-th
// best so far is dropped before its tie is broken or keep is asked.
func (ix *Index) topOf(sc *scratch, k int, keep func(int32) bool, tie func(a, b uint32) int) []scored {
	scores := sc.scores
	top := make([]scored, 0, min(k, len(sc.touched))+1)
	better := func(a, b scored) bool {
		if a.score != b.score {
			return a.score > b.score
		}
		x, y := &ix.slots[a.slot], &ix.slots[b.slot]
		if tie != nil && x.byDoc && y.byDoc {
			return tie(x.doc, y.doc) < 0
		}
		return strings.Compare(x.id, y.id) < 0
	}
	for _, s := range sc.touched {
		score := scores[s]
		scores[s] = 0
		if score <= 0 || (len(top) == k && score < top[k-1].score) {
			continue
		}
		h := scored{slot: s, score: score}
		i := len(top)
		for i > 0 && better(h, top[i-1]) {
			i--
		}
		if i >= k || (keep != nil && !keep(s)) {
			continue
		}
		top = append(top, scored{})
		copy(top[i+1:], top[i:])
		top[i] = h
		if len(top) > k {
			top = top[:k]
		}
	}
	sc.touched = sc.touched[:0]
	return top
}

// hits is top as Hits, by the slots' ids.
func (ix *Index) hits(top []scored) []Hit {
	out := make([]Hit, len(top))
	for i, t := range top {
		out[i] = Hit{ID: ix.slots[t.slot].id, Score: t.score}
	}
	return out
}

// Better orders hits best first: higher score, then smaller ID.
func Better(a, b Hit) bool {
	if a.Score != b.Score {
		return a.Score > b.Score
	}
	return a.ID < b.ID
}
