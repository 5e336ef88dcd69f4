package vectorstest

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/cmem/cmem/internal/textindex"
	"github.com/cmem/cmem/vectors"
)

// Lexical returns the reference's lexical candidates of a hybrid search:
// BM25 (vectors.TextConfig) over the chunks (vectors.Chunks) of the
// fragments matching f, and of no other (a score must not depend on what
// the reader may not see), the top depth chunks collapsed to their
// fragments with the best chunk's score. The index is built afresh for
// every call, so it checks a backend's incremental index too.
func (r *Reference) Lexical(text string, f vectors.Filter, depth int) map[string]float64 {
	ix := textindex.New(vectors.TextConfig())
	owner := map[string]string{}
	for id, m := range r.byID {
		if !Matches(m, f) {
			continue
		}
		for n, c := range vectors.Chunks(m.Key, m.Value) {
			cid := fmt.Sprintf("%s#%04d", id, n)
			owner[cid] = id
			ix.Add(cid, c)
		}
	}
	out := map[string]float64{}
	for _, h := range ix.Search(text, depth, nil) {
		id := owner[h.ID]
		out[id] = max(out[id], h.Score)
	}
	return out
}

// HybridSearch returns the exact hybrid top k, best first, ties by ID: the
// union of the Lexical candidates and the top vectors.HybridDepth(k)
// matching fragments by cosine, each scored by vectors.HybridScore.
func (r *Reference) HybridSearch(q vectors.Query, f vectors.Filter, k int) []Ranked {
	depth := vectors.HybridDepth(k)
	lex := r.Lexical(q.Text, f, depth)
	cands := map[string]bool{}
	for id := range lex {
		cands[id] = true
	}
	for _, v := range r.Search(q.Vector, f, depth) {
		cands[v.ID] = true
	}
	all := make([]Ranked, 0, len(cands))
	for id := range cands {
		m := r.byID[id]
		all = append(all, Ranked{ID: id, Score: vectors.HybridScore(Cosine(q.Vector, m.Vector), lex[id], vectors.ValueTokens(m.Value))})
	}
	slices.SortFunc(all, func(a, b Ranked) int {
		if c := cmp.Compare(b.Score, a.Score); c != 0 {
			return c
		}
		return cmp.Compare(a.ID, b.ID)
	})
	return all[:min(k, len(all))]
}
