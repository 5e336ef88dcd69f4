package textindex

import "math"

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
	return ix.searchIn(query, k, n, totalLen, func(s *slot) bool { return allow == nil || allow(s.id) })
}

// SearchInTagged is SearchIn whose allow predicate is given each
// document's AddTagged number (0 for a document added by Add).
func (ix *Index) SearchInTagged(query string, k int, allow func(tag uint32) bool, n, totalLen int) []Hit {
	return ix.searchIn(query, k, n, totalLen, func(s *slot) bool { return allow == nil || allow(s.tag) })
}

func (ix *Index) searchIn(query string, k int, n, totalLen int, allow func(*slot) bool) []Hit {
	if k <= 0 || n <= 0 {
		return nil
	}
	terms := ix.Tokens(query)
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	sc := ix.scratch.Get().(*scratch)
	defer ix.scratch.Put(sc)
	if len(sc.scores) < len(ix.slots) {
		sc.scores = make([]float64, len(ix.slots))
	}
	if len(sc.memo) < len(ix.slots) {
		sc.memo = make([]int8, len(ix.slots))
	}
	memo := sc.memo
	allowed := func(s int32) bool {
		switch memo[s] {
		case 1:
			return true
		case 2:
			return false
		}
		ok := ix.slots[s].alive && allow(&ix.slots[s])
		memo[s] = 2
		if ok {
			memo[s] = 1
		}
		sc.memoed = append(sc.memoed, s)
		return ok
	}
	scores := sc.scores
	avg := float64(totalLen) / float64(n)
	if avg == 0 {
		avg = 1
	}
	k1, b := ix.cfg.K1, ix.cfg.B
	seen := make(map[string]bool, len(terms))
	for _, t := range terms {
		if seen[t] {
			continue
		}
		seen[t] = true
		tm := ix.terms[t]
		if tm == nil {
			continue
		}
		df := 0
		for _, p := range tm.postings {
			if allowed(p.slot) {
				df++
			}
		}
		if df == 0 {
			continue
		}
		idf := math.Log(1 + (float64(n)-float64(df)+0.5)/(float64(df)+0.5))
		for _, p := range tm.postings {
			if memo[p.slot] != 1 {
				continue
			}
			sl := &ix.slots[p.slot]
			f := float64(p.tf)
			if scores[p.slot] == 0 {
				sc.touched = append(sc.touched, p.slot)
			}
			scores[p.slot] += idf * f * (k1 + 1) / (f + k1*(1-b+b*float64(sl.len)/avg))
		}
	}
	for _, s := range sc.memoed {
		memo[s] = 0
	}
	sc.memoed = sc.memoed[:0]
	return ix.topOf(sc, k, nil)
}
