package e2e_test

import (
	"fmt"
	"math/rand/v2"
	"net/http"
	"slices"
	"sort"
	"testing"

	"github.com/cmem/cmem/node"
	"github.com/cmem/cmem/node/nodetest"
	"github.com/cmem/cmem/vectors/weaviate/weaviatetest"
)

// memModel is the reference model of the memory differential test: the
// current graphs and every fragment's provenance, nothing else.
type memModel struct {
	ua, ar    map[[2]string]bool
	fragments map[string]modelFragment
}

type modelFragment struct {
	tier, user        string
	agents, resources []string
}

func (m *memModel) admissible(u, a string, f modelFragment) bool {
	if f.tier == "private" && f.user != u {
		return false
	}
	for _, x := range f.agents {
		if !m.ua[[2]string{u, x}] {
			return false
		}
	}
	for _, r := range f.resources {
		if !m.ar[[2]string{a, r}] {
			return false
		}
	}
	return true
}

// visible is M(u,a,now) split by tier.
func (m *memModel) visible(u, a string) (private, shared []string) {
	for id, f := range m.fragments {
		if m.admissible(u, a, f) {
			if f.tier == "private" {
				private = append(private, id)
			} else {
				shared = append(shared, id)
			}
		}
	}
	sort.Strings(private)
	sort.Strings(shared)
	return private, shared
}

func idsOf(r nodetest.Response, tier string) []string {
	var out []string
	list, _ := r.Body[tier].([]any)
	for _, x := range list {
		out = append(out, x.(map[string]any)["id"].(string))
	}
	sort.Strings(out)
	return out
}

func strs(v any) []string {
	var out []string
	list, _ := v.([]any)
	for _, x := range list {
		out = append(out, x.(string))
	}
	return out
}

// runMemoryDifferential interleaves random grants, revokes, writes (some
// derived from earlier fragments, some not permitted) and views on a node,
// and checks every view against the model: never outside M(u,a,now), and
// with k large and min_revision, exactly M(u,a,now).
func runMemoryDifferential(t *testing.T, n *node.Node, seed uint64, ops int) {
	c := nodetest.NewClient(t, n)
	rng := rand.New(rand.NewPCG(seed, 99))
	const admin = nodetest.AdminToken
	users, agents, resources := []string{"u0", "u1", "u2", "u3"}, []string{"a0", "a1", "a2", "a3", "a4"}, []string{"r0", "r1", "r2", "r3", "r4", "r5"}
	tokens := map[string]string{}
	for _, u := range users {
		tokens[u] = c.User(u, "user")
	}
	for _, a := range agents {
		c.Must(http.StatusCreated, "POST", "/v1/agents", admin, map[string]string{"id": a, "description": "agent " + a})
	}
	for _, r := range resources {
		c.Must(http.StatusCreated, "POST", "/v1/resources", admin, map[string]any{"id": r, "kind": "computation", "description": r})
	}
	dropped0 := metricSum(t, postfilterDropped)
	m := &memModel{ua: map[[2]string]bool{}, ar: map[[2]string]bool{}, fragments: map[string]modelFragment{}}
	pick := func(s []string) string { return s[rng.IntN(len(s))] }
	var lastRev uint64
	views, exact := 0, 0
	for op := range ops {
		switch k := rng.IntN(10); {
		case k < 3: // grant or revoke
			ua := rng.IntN(2) == 0
			from, to, path := pick(agents), pick(resources), "agent-resource"
			if ua {
				from, to, path = pick(users), pick(agents), "user-agent"
			}
			grant := rng.IntN(3) != 0
			method := map[bool]string{true: "PUT", false: "DELETE"}[grant]
			lastRev = c.Must(http.StatusOK, method, fmt.Sprintf("/v1/grants/%s/%s/%s", path, from, to), admin, nil).Revision()
			if ua {
				m.ua[[2]string{from, to}] = grant
			} else {
				m.ar[[2]string{from, to}] = grant
			}
		case k < 6: // write, mostly through a permitted agent and resources
			u, a := pick(users), pick(agents)
			for _, x := range agents {
				if rng.IntN(4) != 0 && m.ua[[2]string{u, x}] {
					a = x
				}
			}
			res := []string{}
			for _, r := range resources {
				if rng.IntN(4) == 0 && (m.ar[[2]string{a, r}] || rng.IntN(5) == 0) {
					res = append(res, r)
				}
			}
			allowed := m.ua[[2]string{u, a}]
			for _, r := range res {
				allowed = allowed && m.ar[[2]string{a, r}]
			}
			var derived []string
			if rng.IntN(3) == 0 && len(m.fragments) > 0 {
				for id := range m.fragments {
					derived = append(derived, id)
					break
				}
			}
			agentsProv, resProv := []string{a}, slices.Clone(res)
			for _, id := range derived {
				f := m.fragments[id]
				allowed = allowed && m.admissible(u, a, f)
				agentsProv, resProv = append(agentsProv, f.agents...), append(resProv, f.resources...)
			}
			tier := []string{"private", "shared"}[rng.IntN(2)]
			body := map[string]any{"agent": a, "resources": res, "key": fmt.Sprintf("fact %d about %s", op, pick([]string{"lyon", "paris", "rome"})),
				"value": fmt.Sprintf("value %d", op), "tier": tier, "derived_from": derived}
			want := http.StatusForbidden
			if allowed {
				want = http.StatusCreated
			}
			r := c.Must(want, "POST", "/v1/fragments", tokens[u], body)
			if !allowed {
				continue
			}
			lastRev = r.Revision()
			fr := r.Body["fragments"].([]any)[0].(map[string]any)
			slices.Sort(agentsProv)
			slices.Sort(resProv)
			f := modelFragment{tier: tier, user: u, agents: slices.Compact(agentsProv), resources: slices.Compact(resProv)}
			if got := strs(fr["agents"]); !slices.Equal(got, f.agents) {
				t.Fatalf("op %d: provenance agents %v, want %v (transitive)", op, got, f.agents)
			}
			if got := strs(fr["resources"]); !slices.Equal(got, f.resources) && len(got)+len(f.resources) > 0 {
				t.Fatalf("op %d: provenance resources %v, want %v (transitive)", op, got, f.resources)
			}
			m.fragments[fr["id"].(string)] = f
		default: // view
			u, a := pick(users), pick(agents)
			body := map[string]any{"agent": a, "query": pick([]string{"lyon", "paris food", "rome"}), "k_user": 100, "k_cross": 100, "min_revision": lastRev,
				"min_score": -1} // every admissible fragment, however unrelated: this test is about access
			if !m.ua[[2]string{u, a}] {
				c.Must(http.StatusForbidden, "POST", "/v1/memory/view", tokens[u], body)
				continue
			}
			r := c.Must(http.StatusOK, "POST", "/v1/memory/view", tokens[u], body)
			wantP, wantS := m.visible(u, a)
			gotP, gotS := idsOf(r, "private"), idsOf(r, "shared")
			for _, id := range append(slices.Clone(gotP), gotS...) {
				if f, ok := m.fragments[id]; !ok || !m.admissible(u, a, f) {
					t.Fatalf("op %d: view of %s via %s holds %s outside M(u,a,now)", op, u, a, id)
				}
			}
			if !slices.Equal(gotP, wantP) || !slices.Equal(gotS, wantS) {
				t.Fatalf("op %d: view of %s via %s = private %v shared %v; model says %v %v", op, u, a, gotP, gotS, wantP, wantS)
			}
			views++
			if len(wantP)+len(wantS) > 0 {
				exact++
			}
		}
	}
	// A real store's filter is exact: the app's re-check never drops a hit.
	if d := metricSum(t, postfilterDropped) - dropped0; d != 0 {
		t.Fatalf("%s grew by %v with a real store", postfilterDropped, d)
	}
	if views < ops/10 || exact < views/4 || len(m.fragments) < ops/20 {
		t.Fatalf("workload too thin to mean anything: %d views (%d non-empty), %d fragments", views, exact, len(m.fragments))
	}
	t.Logf("%d ops: %d views (%d non-empty) equal to the model, %d fragments", ops, views, exact, len(m.fragments))
}

func TestMemoryDifferentialInProcess(t *testing.T) {
	runMemoryDifferential(t, nodetest.Start(t, nil), 1, 400)
}

// The same workload against a real Weaviate server as the vector view.
func TestMemoryDifferentialWeaviate(t *testing.T) {
	w := weaviatetest.Shared(t)
	n := nodetest.Start(t, func(c *node.Config) {
		c.WeaviateURL, c.WeaviateGRPC, c.WeaviateClass = w.URL, w.GRPCAddr, weaviatetest.Class(t)
	})
	runMemoryDifferential(t, n, 2, 300)
}
