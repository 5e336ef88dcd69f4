package rerank

import (
	"cmp"
	"math"
	"slices"
	"strings"

	"github.com/cmem/cmem/embedding"
)

// BM25's usual constants.
const (
	bm25K1 = 1.2
	bm25B  = 0.75
)

// candidate is a pool fragment retrieved for a lesson, with its BM25 score
// and the share of the lesson's answer it contains.
type candidate struct {
	e       *entry
	bm25    float64
	contrib float64
}

// label retrieves l's candidates, labels them (Eq. 2, offline proxy) and
// returns the contribution of one gradient step of Eq. 3 to each labelled
// candidate, sorted by candidate id.
func (m *Model) label(l *lesson) []Contribution {
	if len(l.answer) == 0 {
		return nil
	}
	cands := m.retrieve(l)
	// p_i = 1 − contrib: sorting by contribution, highest first, is
	// sorting by p, lowest first. Among equals the retrieval order stands
	// (the better BM25 match first, then the older fragment), so the order
	// is total. (Breaking ties the other way, to make the closest
	// look-alikes the negatives, measured worse on the benchmark: it
	// teaches that every memory of a common phrasing is noise.)
	slices.SortFunc(cands, func(a, b candidate) int {
		switch {
		case a.contrib != b.contrib:
			return cmp.Compare(b.contrib, a.contrib)
		case a.bm25 != b.bm25:
			return cmp.Compare(b.bm25, a.bm25)
		}
		return cmp.Compare(a.e.rev, b.e.rev)
	})
	half := min(m.cfg.Labelled/2, len(cands)/2)
	var pos, neg []candidate
	for _, c := range cands[:half] {
		if c.contrib > 0 {
			pos = append(pos, c)
		}
	}
	if len(pos) == 0 {
		return nil // nothing in the pool holds what m says: no reference to learn
	}
	floor := pos[len(pos)-1].contrib
	for _, c := range cands[len(cands)-half:] {
		if c.contrib < floor {
			neg = append(neg, c)
		}
	}
	v := float64(m.cfg.Labelled)
	var out []Contribution
	step := func(c candidate, y float64) {
		x := m.cfg.Weight * (similarity(&l.entry, c.e) - m.cfg.Offset)
		// −η·∂loss/∂b_i at b = 0, loss as Eq. 3: η·(y_i − σ(x_i))/v.
		out = append(out, Contribution{Candidate: c.e.id, Delta: m.cfg.Rate * (y - sigmoid(x)) / v})
	}
	for _, c := range pos {
		step(c, 1)
	}
	for _, c := range neg {
		step(c, 0)
	}
	slices.SortFunc(out, func(a, b Contribution) int { return strings.Compare(a.Candidate, b.Candidate) })
	return out
}

// retrieve is BM25 of l's key and value over the pool l learns from (the
// shared fragments written before it whose provenance is within its),
// the top Candidates with a positive score. Document frequencies and
// lengths are the pool's own, so they too come only from fragments within
// l's provenance. The postings make it cost the fragments sharing a word
// with l, plus one cheap pass over the pool for its size.
func (m *Model) retrieve(l *lesson) []candidate {
	n, total := 0, 0
	for _, e := range m.pool {
		if inPool(e, l) {
			n, total = n+1, total+e.length
		}
	}
	if n == 0 {
		return nil
	}
	avg := max(float64(total)/float64(n), 1)
	scores := map[*entry]float64{}
	for _, w := range l.query { // sorted: every sum adds in the same order in every process
		var in []posting
		for _, p := range m.postings[w] {
			if inPool(p.e, l) {
				in = append(in, p)
			}
		}
		idf := math.Log(1 + (float64(n)-float64(len(in))+0.5)/(float64(len(in))+0.5))
		for _, p := range in {
			tf := float64(p.tf)
			scores[p.e] += idf * tf * (bm25K1 + 1) / (tf + bm25K1*(1-bm25B+bm25B*float64(p.e.length)/avg))
		}
	}
	cands := make([]candidate, 0, len(scores))
	for e, s := range scores {
		if s > 0 {
			cands = append(cands, candidate{e: e, bm25: s})
		}
	}
	slices.SortFunc(cands, func(a, b candidate) int {
		if a.bm25 != b.bm25 {
			return cmp.Compare(b.bm25, a.bm25)
		}
		return cmp.Compare(a.e.rev, b.e.rev)
	})
	cands = cands[:min(len(cands), m.cfg.Candidates)]
	for i := range cands {
		cands[i].contrib = contribution(cands[i].e, l.answer)
	}
	return cands
}

// contribution is the share of answer's words that e contains: the offline
// stand-in for 1 − P(¬Y | c, X) of Eq. 2 — a candidate that holds what the
// new memory says makes a contradicting answer unlikely.
func contribution(e *entry, answer []string) float64 {
	hit := 0
	for _, w := range answer {
		if e.terms[w] > 0 {
			hit++
		}
	}
	return float64(hit) / float64(len(answer))
}

// similarity is the retriever's similarity of a candidate to an admitted
// fragment's key, as the memory view measures it: the cosine of their key
// vectors when both have one of the same model, else 0.
func similarity(m, c *entry) float64 {
	if m.vec == nil || c.vec == nil || m.model != c.model || len(m.vec) != len(c.vec) {
		return 0
	}
	return float64(embedding.Cosine(m.vec, c.vec))
}

func sigmoid(x float64) float64 { return 1 / (1 + math.Exp(-x)) }
