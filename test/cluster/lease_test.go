package cluster_test

import (
	"context"
	"net/http"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/cmem/cmem/node"
	"github.com/cmem/cmem/node/nodetest"
	"github.com/cmem/cmem/vectors"
	"github.com/cmem/cmem/vectors/weaviate"
	"github.com/cmem/cmem/vectors/weaviate/weaviatetest"
)

// gated is a process's Weaviate store whose upserts wait while the gate
// is shut (a slow, lagging process), and which counts the writes that
// reach the class through it.
type gated struct {
	weaviate.Durable
	mu     sync.Mutex
	open   chan struct{}
	writes atomic.Int64
}

func (g *gated) gate() chan struct{} {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.open
}

func (g *gated) Upsert(ctx context.Context, fs []vectors.Fragment) error {
	select {
	case <-g.gate():
	case <-ctx.Done():
		return ctx.Err()
	}
	g.writes.Add(1)
	return g.Durable.Upsert(ctx, fs)
}

func (g *gated) Delete(ctx context.Context, ids []string) error {
	g.writes.Add(1)
	return g.Durable.Delete(ctx, ids)
}

// leaseWorld: a node hosting the log (in-process view), and two nodes a
// and b on it feeding one Weaviate class; b's store is gated.
type leaseWorld struct {
	host, a, b *node.Node
	g          *gated
	c          *nodetest.Client
	alice      string
}

func newLeaseWorld(t *testing.T) *leaseWorld {
	w := weaviatetest.Shared(t)
	class := weaviatetest.Class(t)
	// Content in clear: sealing alone already keeps an erased fragment's
	// text out of a late upsert (its key is destroyed); the lease must
	// hold without it, and a deleted fragment's key may outlive it.
	host, c := nodetest.StartClient(t, func(cfg *node.Config) { cfg.Plaintext = true })
	external := func(wrap func(vectors.Store) vectors.Store) func(*node.Config) {
		return func(cfg *node.Config) {
			cfg.NATSURL, cfg.HTTPAddr = host.Log.ConnectURL(), "127.0.0.1:0"
			cfg.WeaviateURL, cfg.WeaviateGRPC, cfg.WeaviateClass = w.URL, w.GRPCAddr, class
			cfg.WrapStore, cfg.Plaintext = wrap, true
		}
	}
	lw := &leaseWorld{host: host, c: c, g: &gated{open: make(chan struct{})}}
	close(lw.g.open)
	lw.a = nodetest.Start(t, external(nil))
	waitCond(t, "a holds the class's lease", func() bool { return lw.a.ViewLease() != nil && lw.a.ViewLease().Held() })
	lw.b = nodetest.Start(t, external(func(s vectors.Store) vectors.Store {
		lw.g.Durable = s.(weaviate.Durable)
		return lw.g
	}))
	c.Must(http.StatusCreated, "POST", "/v1/agents", nodetest.AdminToken, map[string]string{"id": "scribe", "description": "keeps notes"})
	lw.alice = c.User("alice", "")
	c.Must(http.StatusOK, "PUT", "/v1/grants/user-agent/alice/scribe", nodetest.AdminToken, nil)
	return lw
}

// write writes a fragment as alice and returns its id and revision.
func (lw *leaseWorld) write(key string) (string, uint64) {
	r := lw.c.Must(http.StatusCreated, "POST", "/v1/fragments", lw.alice, map[string]any{"agent": "scribe", "key": key, "value": "note " + key, "tier": "shared"})
	f := r.Body["fragments"].([]any)[0].(map[string]any)
	return f["id"].(string), uint64(f["revision"].(float64))
}

// inClass reports whether the class holds fragment id (read through a,
// which reads the class).
func inClass(t *testing.T, n *node.Node, id string) bool {
	fs, err := n.Store.Get(t.Context(), []string{id})
	if err != nil {
		t.Fatal(err)
	}
	return slices.ContainsFunc(fs, func(f vectors.Fragment) bool { return f.ID == id })
}

// waitCond waits up to 30 s for ok.
func waitCond(t *testing.T, what string, ok func() bool) {
	t.Helper()
	const within = 30 * time.Second
	deadline := time.Now().Add(within)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within %s", what, within)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// A fragment is erased while a second process lags behind its write: once
// that process has caught up with the write, the fragment is still not in
// the class, and the second process wrote nothing to the class at all
// (writes do not multiply with processes).
func TestErasedFragmentNeverComesBackFromALaggingProcess(t *testing.T) {
	lw := newLeaseWorld(t)
	lw.g.mu.Lock()
	lw.g.open = make(chan struct{}) // b lags from here
	lw.g.mu.Unlock()
	id, rev := lw.write("erased-later")
	waitCond(t, "a writes the fragment to the class", func() bool { return inClass(t, lw.a, id) })
	del := lw.c.Must(http.StatusOK, "DELETE", "/v1/fragments/"+id, lw.alice, nil)
	waitCond(t, "a deletes the fragment from the class", func() bool { return !inClass(t, lw.a, id) })
	close(lw.g.open) // b catches up
	ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
	defer cancel()
	if err := lw.b.ViewRunner.WaitFor(ctx, rev); err != nil {
		t.Fatal(err)
	}
	if inClass(t, lw.a, id) {
		t.Errorf("the erased fragment %s is back in the class after the lagging process caught up with its write", id)
	}
	if err := lw.b.ViewRunner.WaitFor(ctx, del.Revision()); err != nil {
		t.Fatal(err)
	}
	if inClass(t, lw.a, id) {
		t.Errorf("the erased fragment %s is in the class at the end", id)
	}
	if n := lw.g.writes.Load(); n != 0 {
		t.Errorf("the process that does not hold the lease wrote the class %d times", n)
	}
}

// The holder stops: the other process takes the lease over within a
// deadline, and a fragment written after reaches the class.
func TestTheClassLeaseIsTakenOver(t *testing.T) {
	lw := newLeaseWorld(t)
	lw.a.Close()
	stopped := time.Now()
	waitCond(t, "b takes the lease over", func() bool { return lw.b.ViewLease().Held() })
	t.Logf("b holds the class's lease %s after a stopped", time.Since(stopped).Round(time.Millisecond))
	id, _ := lw.write("after-takeover")
	waitCond(t, "b writes a fragment to the class", func() bool { return inClass(t, lw.b, id) })
	if lw.g.writes.Load() == 0 {
		t.Error("b holds the lease but wrote nothing through its store")
	}
}
