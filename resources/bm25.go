package resources

import (
	"math"
	"strings"
	"sync"
	"unicode"
)

// BM25 parameters: the usual defaults, which need no tuning per corpus.
const (
	bm25K1 = 1.2
	bm25B  = 0.75
)

// bm25Index is an inverted index over a fixed set of documents. It is never
// changed after newBM25Index, so searches need no locking.
type bm25Index struct {
	docs     []indexedDoc
	postings map[string][]posting
	// norm[d] is k1·(1 − b + b·|d|/avgdl), the part of the BM25
	// denominator that depends only on the document.
	norm []float64
	// scratch holds per-search score arrays: a dense array indexed by
	// document is several times faster than a map, and pooling it keeps
	// large indexes from allocating one per search.
	scratch sync.Pool
}

type scratch struct {
	scores  []float64
	touched []int32 // documents with a score, to read and reset
}

type indexedDoc struct {
	id      string
	snippet string
}

type posting struct {
	doc int32
	tf  int32
}

type hit struct {
	doc   int32
	score float64
}

func newBM25Index(docs []kbDocument, snippetChars int) *bm25Index {
	ix := &bm25Index{
		docs:     make([]indexedDoc, len(docs)),
		postings: make(map[string][]posting),
		norm:     make([]float64, len(docs)),
	}
	lengths := make([]int, len(docs))
	total := 0
	tf := make(map[string]int32)
	for i, d := range docs {
		ix.docs[i] = indexedDoc{id: d.ID, snippet: snippet(d.Text, snippetChars)}
		clear(tf)
		toks := tokenize(d.Text)
		for _, t := range toks {
			tf[t]++
		}
		for t, n := range tf {
			ix.postings[t] = append(ix.postings[t], posting{doc: int32(i), tf: n})
		}
		lengths[i] = len(toks)
		total += len(toks)
	}
	avg := 1.0
	if total > 0 {
		avg = float64(total) / float64(len(docs))
	}
	for i, l := range lengths {
		ix.norm[i] = bm25K1 * (1 - bm25B + bm25B*float64(l)/avg)
	}
	ix.scratch.New = func() any { return &scratch{scores: make([]float64, len(docs))} }
	return ix
}

// search returns up to k documents with a positive score, best first; ties
// go to the document registered first, so results are deterministic.
func (ix *bm25Index) search(query string, k int) []hit {
	terms := tokenize(query)
	sc := ix.scratch.Get().(*scratch)
	defer ix.scratch.Put(sc)
	scores := sc.scores
	n := float64(len(ix.docs))
	seen := make(map[string]bool, len(terms))
	for _, t := range terms {
		if seen[t] {
			continue
		}
		seen[t] = true
		ps := ix.postings[t]
		if len(ps) == 0 {
			continue
		}
		df := float64(len(ps))
		// The "+1" form of idf stays positive for terms in most
		// documents, so a common word never lowers a score.
		idf := math.Log(1 + (n-df+0.5)/(df+0.5))
		for _, p := range ps {
			f := float64(p.tf)
			if scores[p.doc] == 0 {
				sc.touched = append(sc.touched, p.doc)
			}
			scores[p.doc] += idf * f * (bm25K1 + 1) / (f + ix.norm[p.doc])
		}
	}
	top := make([]hit, 0, k+1)
	for _, d := range sc.touched {
		h := hit{doc: d, score: scores[d]}
		scores[d] = 0 // leave the scratch clean for the next search
		i := len(top)
		for i > 0 && better(h, top[i-1]) {
			i--
		}
		if i >= k {
			continue
		}
		top = append(top, hit{})
		copy(top[i+1:], top[i:])
		top[i] = h
		if len(top) > k {
			top = top[:k]
		}
	}
	sc.touched = sc.touched[:0]
	return top
}

func better(a, b hit) bool {
	if a.score != b.score {
		return a.score > b.score
	}
	return a.doc < b.doc
}

// tokenize lower-cases s and splits it on everything that is not a letter
// or a digit.
func tokenize(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
}
