package textindex

import (
	"math"
	"math/bits"
	"slices"
	"sync/atomic"
)

// A query of frequent and rare words spends most of an exhaustive search
// on the frequent ones: their postings are the longest, and their low idf
// rarely lets a document that holds none of the rare ones into the top k.
// search therefore prunes as MaxScore does. Each term's contribution to
// a score is below its bound idf·(k1+1); the terms are taken by
// decreasing bound ("essential"), their admitted postings scored, until
// the k-th best of those partial scores exceeds the sum of the bounds of
// the terms left. A document holding none of the essential terms then
// scores under the k-th best and is not looked at: the frequent terms are
// only counted (their df over the admitted documents), and read for the
// candidates alone, by a galloping search in their postings, which are
// in slot order.
//
// The result is exactly the exhaustive one: every candidate's score is
// summed again from zero over the terms in query order, the same sum in
// the same order as the exhaustive search, and the bound test keeps a
// margin far above the rounding of either sum.

// pruneMinPostings is the least number of postings a query must reach
// before pruning is tried: under it the exhaustive search is cheaper than
// the extra pass that counts each term's admitted postings.
const pruneMinPostings = 4096

// pruning turns searchPruned on; its test turns it off to compare.
var pruning = true

// prunedSearches counts the searches that pruned, for that test.
var prunedSearches atomic.Int64

// pruneMargin is the relative margin of the bound test: rounding moves a
// sum of a few dozen terms by about 1e-15 of it.
const pruneMargin = 1e-9

// qterm is a query term of a pruned search.
type qterm struct {
	tm  *term
	df  int
	idf float64
	// ess marks an essential term; kept is where its admitted postings
	// are in scratch.essKept, valid when kept[1] > 0.
	ess  bool
	kept [2]int
}

// bm25 is one term's contribution to a document's score: the one
// expression both searches use, so that they round alike.
func bm25(idf, f, k1, b, length, avg float64) float64 {
	return idf * f * (k1 + 1) / (f + k1*(1-b+b*length/avg))
}

// idfOf is BM25's idf of a term held by df of n documents.
func idfOf(n, df int) float64 {
	return math.Log(1 + (float64(n)-float64(df)+0.5)/(float64(df)+0.5))
}

// searchPruned is search's scoring by MaxScore (above) of the distinct
// query terms; it reports false, having scored nothing, when the query
// is too small for pruning to pay. Scores are left in sc.scores, the
// slots in sc.touched, as the exhaustive scoring leaves them.
func (ix *Index) searchPruned(sc *scratch, terms []string, k, n, totalLen int, g gate) bool {
	qs, total := sc.qterms[:0], 0
	for _, t := range terms {
		if tm := ix.lookup(t); tm != nil {
			qs = append(qs, qterm{tm: tm})
			total += len(tm.postings)
		}
	}
	sc.qterms = qs
	if !pruning || len(qs) < 2 || total < pruneMinPostings {
		return false
	}
	hots, scores := ix.hot, sc.scores
	avg, k1, b := avgLen(totalLen, n), ix.cfg.K1, ix.cfg.B
	order := sc.order[:0]
	var adm []uint64 // the admitted live slots, for dense terms' df
	for i := range qs {
		q := &qs[i]
		if q.tm.bits != nil && g.by == nil {
			if adm == nil {
				adm = sc.admittedSlots(hots, g.tags)
			}
			q.df = andCount(q.tm.bits, adm)
		} else {
			q.df = g.count(sc, q.tm.postings, hots)
		}
		if q.df > 0 {
			q.idf = idfOf(n, q.df)
			order = append(order, int32(i))
		}
	}
	sc.order = order
	slices.SortFunc(order, func(x, y int32) int { // rarest first: the largest bound
		return qs[x].df - qs[y].df // idf falls as df grows
	})
	// Essential terms are scored (partially, in this order) until the
	// bound test holds; a search whose essential postings pass a third of
	// all gives up pruning and scores every term.
	essKept, essPostings := sc.essKept[:0], 0
	pruned, floor := false, 0.0
	for j, i := range order {
		q := &qs[i]
		if essPostings > total/3 || j == len(order)-1 {
			break // the last term would leave nothing to prune
		}
		kept := g.keep(sc, q.tm.postings, hots)
		q.ess, q.kept = true, [2]int{len(essKept), len(essKept) + len(kept)}
		essKept = append(essKept, kept...)
		essPostings += len(q.tm.postings)
		for _, p := range kept {
			if scores[p.slot] == 0 {
				sc.touched = append(sc.touched, p.slot)
			}
			scores[p.slot] += bm25(q.idf, float64(p.tf), k1, b, float64(hots[p.slot].len), avg)
		}
		rest := 0.0 // the bounds of the terms left, summed afresh
		for _, i := range order[j+1:] {
			rest += qs[i].idf * (k1 + 1)
		}
		if len(sc.touched) < k {
			continue
		}
		if kth := sc.kthBest(k); rest*(1+pruneMargin) < kth*(1-pruneMargin) {
			// A candidate whose partial score with every bound left
			// added stays under the k-th best partial is out too.
			pruned, floor = true, kth*(1-pruneMargin)-rest*(1+pruneMargin)
			break
		}
	}
	sc.essKept = essKept
	if pruned {
		prunedSearches.Add(1)
	}
	// Score every candidate again from zero, term by term in query order.
	kept := sc.touched[:0]
	for _, s := range sc.touched {
		if !pruned || scores[s] >= floor {
			kept = append(kept, s)
		}
		scores[s] = 0
	}
	sc.touched = kept
	var cands []uint64 // the candidates as a bitset over slots, when pruned
	if pruned {
		cands = sc.sortTouched(len(ix.slots))
		defer clear(cands)
	}
	for i := range qs {
		q := &qs[i]
		var ps []posting // the postings to score the candidates from
		switch {
		case q.df == 0:
			continue
		case q.ess:
			ps = essKept[q.kept[0]:q.kept[1]]
		case pruned:
			ps = q.tm.postings
		default: // pruning given up: the term is scored as in search
			for _, p := range g.keep(sc, q.tm.postings, hots) {
				if scores[p.slot] == 0 {
					// A candidate of an essential term later in the
					// query is listed twice; topOf skips the second.
					sc.touched = append(sc.touched, p.slot)
				}
				scores[p.slot] += bm25(q.idf, float64(p.tf), k1, b, float64(hots[p.slot].len), avg)
			}
			continue
		}
		switch {
		case !pruned: // every essential posting is a candidate
			for _, p := range ps {
				scores[p.slot] += bm25(q.idf, float64(p.tf), k1, b, float64(hots[p.slot].len), avg)
			}
		case len(sc.touched)*seekCost < len(ps): // few candidates: each is sought
			at := 0
			for _, s := range sc.touched {
				if at = seek(ps, at, s); at == len(ps) {
					break
				}
				if p := ps[at]; p.slot == s {
					scores[s] += bm25(q.idf, float64(p.tf), k1, b, float64(hots[s].len), avg)
				}
			}
		default: // many: the postings are walked, each tested
			for _, p := range ps {
				if cands[p.slot>>6]>>(p.slot&63)&1 != 0 {
					scores[p.slot] += bm25(q.idf, float64(p.tf), k1, b, float64(hots[p.slot].len), avg)
				}
			}
		}
	}
	return true
}

// admittedSlots is the bitset of the live slots whose tag is in tags.
func (sc *scratch) admittedSlots(hots []hot, tags []uint64) []uint64 {
	words := (len(hots) + 63) / 64
	if cap(sc.adm) < words {
		sc.adm = make([]uint64, words+words/4)
	}
	adm := sc.adm[:words]
	for w := range adm {
		var x uint64
		for i, h := range hots[w*64 : min(w*64+64, len(hots))] {
			t, ok := int(h.tag>>6), uint64(0)
			if t < len(tags) {
				ok = tags[t] >> (h.tag & 63) & 1
			}
			x |= (ok & uint64(^uint32(h.len)>>31)) << i
		}
		adm[w] = x
	}
	return adm
}

// andCount is the number of bits set in both a and b.
func andCount(a, b []uint64) int {
	n := 0
	for i := range min(len(a), len(b)) {
		n += bits.OnesCount64(a[i] & b[i])
	}
	return n
}

// seekCost is about how many postings a walk tests in the time a seek
// of one candidate takes.
const seekCost = 16

// sortTouched puts the touched slots (of an index of n slots) in
// ascending order, through a bitset of them, which it returns (the
// caller clears it).
func (sc *scratch) sortTouched(n int) []uint64 {
	words := (n + 63) / 64
	if len(sc.cands) < words {
		sc.cands = make([]uint64, words+words/4)
	}
	set := sc.cands[:words]
	for _, s := range sc.touched {
		set[s>>6] |= 1 << (s & 63)
	}
	out := sc.touched[:0]
	for w, x := range set {
		for x != 0 {
			out = append(out, int32(w<<6+bits.TrailingZeros64(x)))
			x &= x - 1
		}
	}
	sc.touched = out
	return set
}

// kthBest is the k-th largest score of the touched slots (k ≤ their
// number).
func (sc *scratch) kthBest(k int) float64 {
	h := sc.heap[:0] // a min-heap of the k best so far
	for _, s := range sc.touched {
		x := sc.scores[s]
		if len(h) < k {
			h = append(h, x)
			for i := len(h) - 1; i > 0 && h[(i-1)/2] > h[i]; i = (i - 1) / 2 {
				h[i], h[(i-1)/2] = h[(i-1)/2], h[i]
			}
			continue
		}
		if x <= h[0] {
			continue
		}
		h[0] = x
		for i := 0; ; {
			least, l, r := i, 2*i+1, 2*i+2
			if l < len(h) && h[l] < h[least] {
				least = l
			}
			if r < len(h) && h[r] < h[least] {
				least = r
			}
			if least == i {
				break
			}
			h[i], h[least] = h[least], h[i]
			i = least
		}
	}
	sc.heap = h
	return h[0]
}

// seek returns the first place at or after from in ps (in slot order)
// whose slot is at least s, or len(ps): it gallops from from, then
// halves, so a walk over ascending slots costs about the log of the gaps.
func seek(ps []posting, from int, s int32) int {
	lo, step := from, 1
	hi := from
	for hi < len(ps) && ps[hi].slot < s {
		lo = hi + 1
		hi += step
		step *= 2
	}
	hi = min(hi, len(ps))
	for lo < hi { // ps[lo-1].slot < s (or lo == from); ps[hi].slot ≥ s or hi == len(ps)
		m := int(uint(lo+hi) >> 1)
		if ps[m].slot < s {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}
