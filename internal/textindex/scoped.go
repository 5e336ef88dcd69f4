package textindex

import (
	"math"
	"slices"
)

// SearchIn is Search with BM25's collection statistics taken over the
// documents allow admits only, so that no score depends on a document the
// caller may not see: df counts the allowed documents holding a term, and
// n and totalLen, which the caller supplies, must be the number of allowed
// documents and the sum of their lengths in tokens (len(ix.Tokens(text))
// of each). Search's statistics count every document, which is right when
// every caller may see every document (a knowledge base) and cheaper.
//
// allow is called at most once per document holding a query term.
func (ix *Index) SearchIn(query string, k int, allow func(id string) bool, n, totalLen int) []Hit {
	return ix.searchIn(query, k, n, totalLen, gate{by: func(s int32) bool { return allow == nil || allow(ix.slots[s].id) }}, nil)
}

// SearchInTagged is SearchIn whose allow predicate is given each
// document's AddTagged number (0 for a document added by Add).
func (ix *Index) SearchInTagged(query string, k int, allow func(tag uint32) bool, n, totalLen int) []Hit {
	return ix.searchIn(query, k, n, totalLen, gate{by: func(s int32) bool { return allow == nil || allow(ix.hot[s].tag) }}, nil)
}

// SearchInTags is SearchInTagged whose predicate is a bitset over
// AddTagged's numbers: a document tagged t is allowed when bit t%64 of
// tags[t/64] is set (a number past the end of tags is not). A caller that
// resolves its filter to a set once per search saves a call per posting.
func (ix *Index) SearchInTags(query string, k int, tags []uint64, n, totalLen int) []Hit {
	return ix.searchIn(query, k, n, totalLen, gate{tags: tags}, nil)
}

// DocHit is one document found by SearchDocs.
type DocHit struct {
	// Doc is the number AddDoc was given.
	Doc uint32
	// Score is its BM25 score for the query, > 0.
	Score float64
}

// SearchDocs is SearchInTags over documents added by AddDoc: hits name
// them by number, and two of equal score are ordered by tie(a, b) (< 0
// when a goes first), which the caller answers from what it keeps about
// its documents; it is asked only about hits contending for the top k.
func (ix *Index) SearchDocs(query string, k int, tags []uint64, n, totalLen int, tie func(a, b uint32) int) []DocHit {
	var out []DocHit
	ix.search(query, k, n, totalLen, gate{tags: tags}, tie, func(top []scored) {
		out = make([]DocHit, len(top))
		for i, t := range top {
			out[i] = DocHit{Doc: ix.slots[t.slot].doc, Score: t.score}
		}
	})
	return out
}

// gate is searchIn's filter: a bitset over tags, or a predicate over
// slots asked once per slot (its verdicts kept in the scratch's bitsets).
type gate struct {
	tags []uint64
	by   func(slot int32) bool
}

// admits reports whether the live slot s with hot h passes g.
func (g *gate) admits(sc *scratch, s int32, h hot) bool {
	if !h.alive() {
		return false
	}
	if g.by == nil {
		w := int(h.tag >> 6)
		return w < len(g.tags) && g.tags[w]>>(h.tag&63)&1 != 0
	}
	w, bit := s>>6, uint64(1)<<(s&63)
	if sc.checked[w]&bit == 0 {
		sc.checked[w] |= bit
		if g.by(s) {
			sc.ok[w] |= bit
		}
	}
	return sc.ok[w]&bit != 0
}

// keep returns the postings g admits, in the scratch's buffer. With a tag
// bitset it keeps without a branch on the verdict, which a filter
// admitting about half the documents would mispredict half the time.
func (g *gate) keep(sc *scratch, postings []posting, hots []hot) []posting {
	kept := slices.Grow(sc.kept[:0], len(postings))[:len(postings)]
	n := 0
	if g.by != nil {
		for _, p := range postings {
			if g.admits(sc, p.slot, hots[p.slot]) {
				kept[n] = p
				n++
			}
		}
	} else {
		tags := g.tags
		for _, p := range postings {
			h := hots[p.slot]
			w, ok := int(h.tag>>6), uint64(0)
			if w < len(tags) {
				ok = tags[w] >> (h.tag & 63) & 1
			}
			ok &= uint64(^uint32(h.len) >> 31) // alive: len ≥ 0
			kept[n] = p
			n += int(ok)
		}
	}
	sc.kept = kept
	return kept[:n]
}

// searchIn is search whose hits name documents by id.
func (ix *Index) searchIn(query string, k int, n, totalLen int, g gate, tie func(a, b uint32) int) []Hit {
	var out []Hit
	ix.search(query, k, n, totalLen, g, tie, func(top []scored) { out = ix.hits(top) })
	return out
}

// search scores query's matches among the documents g admits, with BM25's
// statistics over them, and hands the best k to done while the index is
// still locked (done reads the slots).
func (ix *Index) search(query string, k int, n, totalLen int, g gate, tie func(a, b uint32) int, done func([]scored)) {
	if k <= 0 || n <= 0 {
		return
	}
	terms := ix.Tokens(query)
	unlock := ix.lockForSearch()
	defer unlock()
	sc := ix.getScratch()
	defer ix.scratch.Put(sc)
	if g.by != nil {
		words := (len(ix.slots) + 63) / 64
		if len(sc.checked) < words {
			sc.checked, sc.ok = make([]uint64, words+words/4), make([]uint64, words+words/4)
		}
		defer func() { clear(sc.checked[:words]); clear(sc.ok[:words]) }()
	}
	scores, hots := sc.scores, ix.hot
	avg, k1, b := avgLen(totalLen, n), ix.cfg.K1, ix.cfg.B
	for _, t := range sc.distinct(terms) {
		tm := ix.lookup(t)
		if tm == nil {
			continue
		}
		// One pass keeps the admitted postings (their count is df over
		// the allowed documents); the second scores them.
		kept := g.keep(sc, tm.postings, hots)
		df := len(kept)
		if df == 0 {
			continue
		}
		idf := math.Log(1 + (float64(n)-float64(df)+0.5)/(float64(df)+0.5))
		for _, p := range kept {
			f := float64(p.tf)
			if scores[p.slot] == 0 {
				sc.touched = append(sc.touched, p.slot)
			}
			scores[p.slot] += idf * f * (k1 + 1) / (f + k1*(1-b+b*float64(hots[p.slot].len)/avg))
		}
	}
	done(ix.topOf(sc, k, nil, tie))
}
