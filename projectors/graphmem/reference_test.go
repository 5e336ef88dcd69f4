package graphmem_test

import (
	"cmp"
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cmem/cmem/embedding"
	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/projectors/graphmem"
)

// refStep is one round of a reference query.
type refStep struct {
	agent              string
	subquery, response string
	subLabel, respLab  events.Label
	called             []string
	refused            bool
}

// refQuery is a finished query as the reference model holds it.
type refQuery struct {
	id, user, text, status, stage, reason string
	steps                                 []refStep
	vec                                   []float32
	erased                                bool
}

// refModel is the naive model of graph memory the traversal is compared
// with: plain lists and sets, every question answered by brute force.
type refModel struct {
	k, m      int
	threshold float32
	ua, ar    map[string]bool // "user/agent", "agent/resource"
	queries   []*refQuery
}

func (m *refModel) admits(user, agent string, l events.Label) bool {
	for _, a := range l.Agents {
		if !m.ua[user+"/"+a] {
			return false
		}
	}
	for _, r := range l.Resources {
		if !m.ar[agent+"/"+r] {
			return false
		}
	}
	return true
}

func (q *refQuery) labels() []events.Label {
	var ls []events.Label
	for _, s := range q.steps {
		ls = append(ls, s.subLabel)
		if !s.refused {
			ls = append(ls, s.respLab)
		}
	}
	return ls
}

// queryAdmitted is the query's own rule: every utterance of it admitted.
func (m *refModel) queryAdmitted(user, agent string, q *refQuery) bool {
	for _, l := range q.labels() {
		if !m.admits(user, agent, l) {
			return false
		}
	}
	return true
}

type refAnswer struct {
	queries, interactions, insights []string
}

func (m *refModel) retrieve(user, agent string, v []float32) refAnswer {
	var ok []*refQuery
	for _, q := range m.queries {
		if q.user == user && !q.erased && m.queryAdmitted(user, agent, q) {
			ok = append(ok, q)
		}
	}
	score := func(q *refQuery) float32 { return embedding.Cosine(v, q.vec) }
	byScore := func(a, b *refQuery) int { return cmp.Or(cmp.Compare(score(b), score(a)), cmp.Compare(a.id, b.id)) }
	slices.SortFunc(ok, byScore)
	seeds := ok[:min(m.k, len(ok))]
	var set []*refQuery
	for _, q := range ok {
		near := slices.Contains(seeds, q)
		for _, s := range seeds {
			near = near || embedding.Cosine(s.vec, q.vec) >= m.threshold
		}
		if near {
			set = append(set, q)
		}
	}
	slices.SortFunc(set, byScore)
	var ans refAnswer
	for _, q := range set {
		ans.queries = append(ans.queries, q.id)
	}
	for _, q := range set[:min(m.m, len(set))] {
		for i, s := range q.steps {
			if m.admits(user, agent, s.subLabel) {
				ans.interactions = append(ans.interactions, fmt.Sprintf("%s/%d/selected", q.id, i+1))
			}
			if !s.refused && m.admits(user, agent, s.respLab) {
				ans.interactions = append(ans.interactions, fmt.Sprintf("%s/%d/responded", q.id, i+1))
			}
		}
	}
	// Insights: group every present query of the user by the rules; show a
	// group when it meets the retrieved set and every one of its queries
	// is admitted.
	groups := map[string][]*refQuery{}
	for _, q := range m.queries {
		if q.user != user || q.erased {
			continue
		}
		roles := map[string][]string{}
		for _, s := range q.steps {
			if !s.refused {
				roles[s.agent] = append(roles[s.agent], s.called...)
			}
		}
		if q.status == graphmem.StatusFailed && len(roles) == 0 {
			roles[""] = nil
		}
		for role, called := range roles {
			appr := "stage:" + q.stage
			if q.status == graphmem.StatusAnswered {
				if appr = strings.Join(events.SortedSet(called), ","); appr == "" {
					appr = graphmem.ApproachMemory
				}
			}
			key := role + "|" + q.status + "|" + appr
			groups[key] = append(groups[key], q)
		}
	}
	for key, qs := range groups {
		meets, all := false, true
		for _, q := range qs {
			meets = meets || slices.ContainsFunc(set, func(s *refQuery) bool { return s == q })
			all = all && m.queryAdmitted(user, agent, q)
		}
		if meets && all {
			ids := make([]string, len(qs))
			for i, q := range qs {
				ids[i] = q.id
			}
			slices.Sort(ids)
			ans.insights = append(ans.insights, key+"|"+strings.Join(ids, ","))
		}
	}
	slices.Sort(ans.insights)
	return ans
}

func got(r graphmem.Result) refAnswer {
	var a refAnswer
	for _, q := range r.Queries {
		a.queries = append(a.queries, q.ID)
	}
	for _, it := range r.Interactions {
		a.interactions = append(a.interactions, it.ID)
	}
	for _, in := range r.Insights {
		ids := slices.Sorted(slices.Values(in.Supporting))
		a.insights = append(a.insights, in.Role+"|"+in.Status+"|"+in.Approach+"|"+strings.Join(ids, ","))
	}
	slices.Sort(a.insights)
	return a
}

var vocabulary = strings.Fields("paris lyon flights hotel budget museum train weather dinner")

func sentence(rng *rand.Rand) string {
	n := 2 + rng.IntN(2)
	w := make([]string, n)
	for i := range w {
		w[i] = vocabulary[rng.IntN(len(vocabulary))]
	}
	return strings.Join(w, " ")
}

func pick(rng *rand.Rand, from []string, most int) []string {
	var out []string
	for range rng.IntN(most + 1) {
		out = append(out, from[rng.IntN(len(from))])
	}
	return events.SortedSet(out)
}

func embedOne(t testing.TB, e embedding.Embedder, s string) []float32 {
	t.Helper()
	v, err := e.Embed(context.Background(), []string{s})
	if err != nil {
		t.Fatal(err)
	}
	return v[0]
}

var epoch = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
