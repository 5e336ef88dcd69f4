package vectorstest

import (
	"cmp"
	"math"
	"slices"

	"github.com/cmem/cmem/vectors"
)

// Matches is the definition of a filter match, written as plainly as
// possible: same tier, the private tier only for its user, A(m) ⊆ allowed
// agents and R(m) ⊆ allowed resources. Excluded* are not consulted: they
// are a hint for backends, the allowed sets are the truth.
func Matches(m vectors.Fragment, f vectors.Filter) bool {
	if m.Tier != f.Tier || (m.Tier == "private" && m.User != f.User) {
		return false
	}
	return subsetOf(m.Agents, f.AllowedAgents) && subsetOf(m.Resources, f.AllowedResources)
}

func subsetOf(xs, of []string) bool {
	for _, x := range xs {
		if !slices.Contains(of, x) {
			return false
		}
	}
	return true
}

// Cosine is the cosine similarity in float64; 0 if either vector is zero.
func Cosine(a, b []float32) float64 {
	var ab, aa, bb float64
	for i := range a {
		ab += float64(a[i]) * float64(b[i])
		aa += float64(a[i]) * float64(a[i])
		bb += float64(b[i]) * float64(b[i])
	}
	if aa == 0 || bb == 0 {
		return 0
	}
	return ab / math.Sqrt(aa*bb)
}

// Ranked is one answer of the reference.
type Ranked struct {
	ID    string
	Score float64
}

// Reference is an exact, brute-force model of a Store.
type Reference struct {
	byID map[string]vectors.Fragment
}

// NewReference returns an empty reference.
func NewReference() *Reference { return &Reference{byID: map[string]vectors.Fragment{}} }

// Upsert replaces by ID, as a Store must.
func (r *Reference) Upsert(fs []vectors.Fragment) {
	for _, f := range fs {
		r.byID[f.ID] = f
	}
}

// Fragment returns the fragment with id.
func (r *Reference) Fragment(id string) (vectors.Fragment, bool) {
	f, ok := r.byID[id]
	return f, ok
}

// Len returns the number of fragments.
func (r *Reference) Len() int { return len(r.byID) }

// MatchSet returns the ids of every fragment matching f.
func (r *Reference) MatchSet(f vectors.Filter) map[string]bool {
	out := map[string]bool{}
	for id, m := range r.byID {
		if Matches(m, f) {
			out[id] = true
		}
	}
	return out
}

// Search returns the exact top k, best first, ties by ascending ID.
func (r *Reference) Search(q []float32, f vectors.Filter, k int) []Ranked {
	var all []Ranked
	for id, m := range r.byID {
		if Matches(m, f) {
			all = append(all, Ranked{ID: id, Score: Cosine(q, m.Vector)})
		}
	}
	slices.SortFunc(all, func(a, b Ranked) int {
		if c := cmp.Compare(b.Score, a.Score); c != 0 {
			return c
		}
		return cmp.Compare(a.ID, b.ID)
	})
	return all[:min(k, len(all))]
}

// Recall is |got ∩ want| / |want|, 1 when want is empty.
func Recall(got []vectors.Hit, want []Ranked) float64 {
	if len(want) == 0 {
		return 1
	}
	in := map[string]bool{}
	for _, h := range got {
		in[h.ID] = true
	}
	n := 0
	for _, w := range want {
		if in[w.ID] {
			n++
		}
	}
	return float64(n) / float64(len(want))
}

// Delete removes fragments by id, as a Store must.
func (r *Reference) Delete(ids []string) {
	for _, id := range ids {
		delete(r.byID, id)
	}
}
