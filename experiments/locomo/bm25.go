package locomo

import (
	"math"
	"slices"
	"strings"
	"unicode"
)

// bm25 is Okapi BM25 (k1 = 1.2, b = 0.75) over lower-cased letter-and-
// digit tokens, no stemming and no stop words: the plain baseline. It is a
// stand-in of the project's inverted index's shape, for this benchmark
// only.
type bm25 struct {
	ids      []string
	lens     []int
	postings map[string][]posting
	total    int
}

type posting struct{ doc, tf int }

func newBM25() *bm25 { return &bm25{postings: map[string][]posting{}} }

func bm25Tokens(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

// Add indexes text under id; ids are added once.
func (ix *bm25) Add(id, text string) {
	doc := len(ix.ids)
	toks := bm25Tokens(text)
	ix.ids, ix.lens = append(ix.ids, id), append(ix.lens, len(toks))
	ix.total += len(toks)
	tf := map[string]int{}
	for _, t := range toks {
		tf[t]++
	}
	for t, n := range tf {
		ix.postings[t] = append(ix.postings[t], posting{doc, n})
	}
}

// Search returns the ids of the k best documents with a positive score,
// best first; ties go to the document added first.
func (ix *bm25) Search(query string, k int) []string {
	const k1, b = 1.2, 0.75
	n := float64(len(ix.ids))
	if n == 0 {
		return nil
	}
	avg := float64(ix.total) / n
	scores := map[int]float64{}
	for _, t := range bm25Tokens(query) {
		ps := ix.postings[t]
		if len(ps) == 0 {
			continue
		}
		idf := math.Log(1 + (n-float64(len(ps))+0.5)/(float64(len(ps))+0.5))
		for _, p := range ps {
			tf := float64(p.tf)
			scores[p.doc] += idf * tf * (k1 + 1) / (tf + k1*(1-b+b*float64(ix.lens[p.doc])/avg))
		}
	}
	docs := make([]int, 0, len(scores))
	for d, s := range scores {
		if s > 0 {
			docs = append(docs, d)
		}
	}
	slices.SortFunc(docs, func(x, y int) int {
		if scores[x] != scores[y] {
			if scores[x] > scores[y] {
				return -1
			}
			return 1
		}
		return x - y
	})
	out := make([]string, 0, min(k, len(docs)))
	for _, d := range docs[:min(k, len(docs))] {
		out = append(out, ix.ids[d])
	}
	return out
}
