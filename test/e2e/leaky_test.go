package e2e_test

import (
	"context"
	"net/http"
	"sync"
	"testing"

	"github.com/cmem/cmem/node"
	"github.com/cmem/cmem/node/nodetest"
	"github.com/cmem/cmem/vectors"
)

const postfilterDropped = "cmem_view_postfilter_dropped_total"

// leakyStore is a vector store whose filter is broken on purpose: Search
// returns every fragment it holds, any tier, any user, any provenance.
type leakyStore struct {
	vectors.Store
	mu  sync.Mutex
	all map[string]vectors.Fragment
}

func (s *leakyStore) Upsert(ctx context.Context, fs []vectors.Fragment) error {
	s.mu.Lock()
	for _, f := range fs {
		s.all[f.ID] = f
	}
	s.mu.Unlock()
	return s.Store.Upsert(ctx, fs)
}

func (s *leakyStore) Search(_ context.Context, _ []float32, _ vectors.Filter, k int) ([]vectors.Hit, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []vectors.Hit
	for _, f := range s.all {
		if len(out) < k {
			out = append(out, vectors.Hit{Fragment: f, Score: 1})
		}
	}
	return out, nil
}

// With a store that leaks everything, the memory view still shows alice
// only what M(u,a,t) admits, and every leaked hit is counted as dropped by
// the app's own re-check.
func TestLeakyStoreHitsAreDroppedAndCounted(t *testing.T) {
	n := nodetest.Start(t, func(c *node.Config) {
		c.WrapStore = func(s vectors.Store) vectors.Store { return &leakyStore{Store: s, all: map[string]vectors.Fragment{}} }
	})
	c := nodetest.NewClient(t, n)
	const admin = nodetest.AdminToken
	alice, bob := c.User("alice", "user"), c.User("bob", "user")
	for _, a := range []string{"planner", "spy"} {
		c.Must(http.StatusCreated, "POST", "/v1/agents", admin, map[string]string{"id": a, "description": "d"})
	}
	c.Must(http.StatusOK, "PUT", "/v1/grants/user-agent/alice/planner", admin, nil)
	c.Must(http.StatusOK, "PUT", "/v1/grants/user-agent/bob/planner", admin, nil)
	c.Must(http.StatusOK, "PUT", "/v1/grants/user-agent/bob/spy", admin, nil)
	var last uint64
	write := func(token, agent, key, tier string) string {
		r := c.Must(http.StatusCreated, "POST", "/v1/fragments", token, map[string]any{"agent": agent, "key": key, "value": "v", "tier": tier})
		last = r.Revision()
		return r.Body["fragments"].([]any)[0].(map[string]any)["id"].(string)
	}
	mine := write(alice, "planner", "lyon food", "shared")
	write(bob, "planner", "bob private note", "private")
	write(bob, "spy", "spy finding", "shared")

	before := metricSum(t, postfilterDropped)
	r := c.Must(http.StatusOK, "POST", "/v1/memory/view", alice, map[string]any{"agent": "planner", "query": "lyon", "k_user": 10, "k_cross": 10,
		"min_revision": last})
	priv, shared := r.Body["private"].([]any), r.Body["shared"].([]any)
	if len(priv) != 0 || len(shared) != 1 || shared[0].(map[string]any)["id"] != mine {
		t.Fatalf("alice's view through a leaky store: %s", r.Raw)
	}
	// Private tier: all 3 leaked hits dropped (alice's is shared, bob's are
	// bob's); shared tier: bob's private and the spy's fragment dropped.
	if d := metricSum(t, postfilterDropped) - before; d != 5 {
		t.Fatalf("%s grew by %v, want 5", postfilterDropped, d)
	}
}
