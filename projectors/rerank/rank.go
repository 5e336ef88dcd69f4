package rerank

import (
	"cmp"
	"slices"

	"github.com/cmem/cmem/embedding"
	"github.com/cmem/cmem/projectors/access"
)

// Candidate is a fragment a memory view considers, with the similarity of
// its key to the query.
type Candidate struct {
	ID    string
	Score float32
}

// Admits says whether the reader a view is served to may see content of
// provenance p (access.Admits on the graphs the view is judged on).
type Admits func(p access.Provenance) bool

// Active reports whether the model has learned anything at all; a view
// fetches extra candidates to re-rank only then.
func (m *Model) Active() bool {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return len(m.taught) > 0
}

// Rerank returns cands ordered by the learned retriever's logit for query
// (a vector of model), highest first, ties in their given order, and how
// many lessons it counted. Only lessons of admitted fragments that admits
// lets the reader see count, so the order depends on nothing the reader
// may not see; with none, it is the order of Score.
func (m *Model) Rerank(query []float32, model string, cands []Candidate, admits Admits) ([]Candidate, int) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	out := slices.Clone(cands)
	in := make(map[string]int, len(cands))
	var ids []string
	for i, c := range cands {
		in[c.ID] = i
		for id := range m.taught[c.ID] {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	ids = slices.Compact(ids)
	taught := make([]*lesson, 0, len(ids))
	for _, id := range ids {
		taught = append(taught, m.lessons[id])
	}
	// In log order, so the sums are the same floats in every process.
	slices.SortFunc(taught, func(a, b *lesson) int { return cmp.Compare(a.rev, b.rev) })
	bonus := make([]float64, len(cands))
	counted := 0
	for _, l := range taught {
		if l.vec == nil || l.model != model || len(l.vec) != len(query) {
			continue // learned with another embedder: its similarities are not this query's
		}
		k := m.kernel(query, l) + m.cfg.Prior
		if k == 0 || !admits(l.prov) {
			continue
		}
		counted++
		for _, c := range l.deltas {
			if i, ok := in[c.Candidate]; ok {
				bonus[i] += c.Delta * k
			}
		}
	}
	logit := make(map[string]float64, len(cands))
	for i, c := range cands {
		logit[c.ID] = m.cfg.Weight*(float64(c.Score)-m.cfg.Offset) + bonus[i]
	}
	slices.SortStableFunc(out, func(a, b Candidate) int { return cmp.Compare(logit[b.ID], logit[a.ID]) })
	return out, counted
}

// kernel is how much lesson l applies to query beyond its prior: 0 when
// l's key is further than Kernel from it, then rising linearly to 1 for
// the same direction.
func (m *Model) kernel(query []float32, l *lesson) float64 {
	cos := float64(embedding.Cosine(query, l.vec))
	if cos <= m.cfg.Kernel {
		return 0
	}
	return (cos - m.cfg.Kernel) / (1 - m.cfg.Kernel)
}
