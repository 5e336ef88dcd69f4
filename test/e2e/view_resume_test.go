package e2e_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/cmem/cmem/node"
	"github.com/cmem/cmem/node/nodetest"
	"github.com/cmem/cmem/vectors"
	"github.com/cmem/cmem/vectors/weaviate/weaviatetest"
)

// A Weaviate view survives a restart: the node resumes after the view's
// checkpoint instead of rewriting every fragment, and a view made by
// another embedder is rebuilt from the log.
func TestWeaviateViewResumesAfterItsCheckpoint(t *testing.T) {
	w := weaviatetest.Shared(t)
	dir, class := t.TempDir(), weaviatetest.Class(t)
	cfg := func(c *node.Config) {
		c.DataDir, c.WeaviateURL, c.WeaviateGRPC, c.WeaviateClass = dir, w.URL, w.GRPCAddr, class
	}
	n, c := nodetest.StartClient(t, cfg)
	alice := c.User("alice", "user")
	c.Must(http.StatusCreated, "POST", "/v1/agents", admin, map[string]string{"id": "a", "description": "a"})
	grantAgent(c, "alice", "a")
	var last uint64
	for _, k := range []string{"lyon food", "paris museums", "rome ruins"} {
		last = c.Must(http.StatusCreated, "POST", "/v1/fragments", alice, map[string]any{"agent": "a", "key": k, "value": k, "tier": "shared"}).Revision()
	}
	c.Must(http.StatusOK, "POST", "/v1/memory/view", alice, map[string]any{"agent": "a", "query": "lyon", "min_revision": last})
	n.Close()

	n = nodetest.Start(t, cfg)
	if n.ViewResumedFrom != last {
		t.Fatalf("the view resumed after revision %d; its checkpoint covers %d", n.ViewResumedFrom, last)
	}
	c = nodetest.NewClient(t, n)
	v := c.Must(http.StatusOK, "POST", "/v1/memory/view", alice, map[string]any{"agent": "a", "query": "lyon", "k_cross": 10})
	if got := len(v.Body["shared"].([]any)); got != 3 {
		t.Fatalf("after the restart the view holds %d fragments, want 3: %s", got, v.Raw)
	}
	// A view recorded as made by another embedder is rebuilt from the log.
	if err := n.Store.(vectors.Checkpointer).SetCheckpoint(context.Background(), last, "some-other-embedder"); err != nil {
		t.Fatal(err)
	}
	n.Close()
	n = nodetest.Start(t, cfg)
	if n.ViewResumedFrom != 0 {
		t.Fatalf("a view of another embedder resumed after %d instead of being rebuilt", n.ViewResumedFrom)
	}
	if err := n.ViewRunner.WaitFor(context.Background(), last); err != nil {
		t.Fatal(err)
	}
	if cnt, err := n.Store.Count(context.Background()); err != nil || cnt != 3 {
		t.Fatalf("rebuilt view holds %d fragments (%v), want 3", cnt, err)
	}
	// The view's vectors embed key and value: its model says so.
	if _, model, _ := n.Store.(vectors.Checkpointer).Checkpoint(context.Background()); model != vectors.ContentModel(n.Embedder.Model()) {
		t.Fatalf("checkpoint model %q after the rebuild, want %q", model, vectors.ContentModel(n.Embedder.Model()))
	}
}
