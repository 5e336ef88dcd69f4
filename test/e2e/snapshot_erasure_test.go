package e2e_test

import (
	"context"
	"net/http"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/node"
	"github.com/cmem/cmem/node/nodetest"
	"github.com/cmem/cmem/projectors/memory"
	"github.com/cmem/cmem/projectors/query"
	"github.com/cmem/cmem/projectors/snapshot"
	"github.com/cmem/cmem/projectors/snapshot/natsobj"
	"github.com/cmem/cmem/shred"
	"github.com/cmem/cmem/vectors/inmem"
)

// restoredContent restores the content-bearing sections of the newest
// snapshot into fresh projections, opened with n's keys, alone (no tail
// of the log): what the snapshot itself can give back.
func restoredContent(t *testing.T, n *node.Node) (*inmem.Store, *query.Projection, uint64) {
	t.Helper()
	ctx := context.Background()
	store, err := inmem.New(n.Embedder.Dims())
	if err != nil {
		t.Fatal(err)
	}
	qs := query.NewProjection()
	st, err := natsobj.Open(ctx, n.Log.JetStream(), natsobj.Bucket, 1)
	if err != nil {
		t.Fatal(err)
	}
	head, err := n.Log.Head(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	rev := snapshot.Restore(ctx, st, shred.NewSnapshotSealer(n.Keys), head, nil,
		memory.NewViewProjection("vector-view", store, n.Embedder), qs)
	return store, qs, rev
}

// A snapshot is a copy of projected content, and erasure reaches it: the
// snapshot holds alice's fragment and query only sealed under their data
// keys (no marker in any file, while the ids are found in the object
// store's files), so after alice is erased the snapshot taken before
// cannot give them back — neither restored alone nor to a fresh process
// started from it, whose API never shows them — while bob's content in the
// same snapshot is intact.
func TestSnapshotBeforeErasureNeverBringsContentBack(t *testing.T) {
	dir := t.TempDir()
	n := nodetest.Start(t, snapshotsByHand(dir))
	w := newErasureWorld(t, n)
	snap, err := n.TakeSnapshot(context.Background())
	if err != nil {
		t.Fatal(err)
	}

	// Before the erasure the snapshot does hold alice's content.
	store, qs, rev := restoredContent(t, n)
	if rev != snap {
		t.Fatalf("restored the snapshot at %d, want %d", rev, snap)
	}
	if fs, _ := store.Get(context.Background(), []string{w.aliceFrag}); len(fs) != 1 || !strings.Contains(fs[0].Value, aliceMarker) {
		t.Fatalf("the snapshot does not hold alice's fragment before the erasure: %+v", fs)
	}
	if q, ok := qs.Get(w.aliceQuery); !ok || !strings.Contains(q.Text, aliceMarker) {
		t.Fatalf("the snapshot does not hold alice's query before the erasure: %+v", q)
	}
	objects := filepath.Join(dir, "jetstream")
	if len(filesContaining(t, objects, []byte(w.aliceFrag))) == 0 {
		t.Fatalf("fragment id %s not in the store files: the byte search cannot be trusted", w.aliceFrag)
	}
	for _, m := range []string{aliceMarker, bobMarker} {
		if hits := filesContaining(t, dir, []byte(m)); len(hits) > 0 {
			t.Fatalf("marker %s in clear in %v: a snapshot must hold content only sealed", m, hits)
		}
	}

	w.c.Must(http.StatusOK, "DELETE", "/v1/users/alice", nodetest.AdminToken, nil)

	// The same snapshot, restored alone, gives nothing of alice back.
	store, qs, rev = restoredContent(t, n)
	if rev != snap {
		t.Fatalf("restored the snapshot at %d, want the one taken before the erasure (%d)", rev, snap)
	}
	if fs, _ := store.Get(context.Background(), []string{w.aliceFrag, w.bobFrag}); len(fs) != 1 || fs[0].ID != w.bobFrag {
		t.Errorf("restored from the snapshot after alice's erasure: %+v, want bob's fragment only", fs)
	}
	if q, ok := qs.Get(w.aliceQuery); !ok || q.Text != events.Erased || strings.Contains(q.Answer, aliceMarker) {
		t.Errorf("alice's query restored after her erasure: %+v", q)
	}
	n.Close()

	// A fresh process started from that snapshot never shows it either.
	n = nodetest.Start(t, snapshotsByHand(dir))
	if n.RestoredFrom != snap {
		t.Fatalf("the process started from %d, want the snapshot taken before the erasure (%d)", n.RestoredFrom, snap)
	}
	c := nodetest.NewClient(t, n)
	if ids := viewIDs(c, w.bob); slices.Contains(ids, w.aliceFrag) || !slices.Contains(ids, w.bobFrag) {
		t.Errorf("bob's view after a start from the snapshot = %v", ids)
	}
	for _, path := range []string{"/v1/queries/" + w.aliceQuery, "/v1/queries/" + w.bobRead} {
		if r := c.Do("GET", path, nodetest.AdminToken, nil); strings.Contains(string(r.Raw), aliceMarker) {
			t.Errorf("GET %s shows alice's erased content: %s", path, r.Raw)
		}
	}
	if got, _ := n.Store.Get(context.Background(), []string{w.aliceFrag}); len(got) != 0 {
		t.Errorf("the view of a process started from the snapshot holds alice's fragment: %+v", got)
	}
	for _, m := range []string{aliceMarker, bobMarker} {
		if hits := filesContaining(t, dir, []byte(m)); len(hits) > 0 {
			t.Errorf("marker %s in clear in %v after the erasure", m, hits)
		}
	}
}
