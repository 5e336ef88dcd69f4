package e2e_test

import (
	"context"
	"fmt"
	"net/http"
	"reflect"
	"testing"
	"time"

	"github.com/cmem/cmem/node"
	"github.com/cmem/cmem/node/nodetest"
	"github.com/cmem/cmem/projectors/snapshot/natsobj"
)

// snapshotsByHand makes a node take snapshots only when the test asks
// (TakeSnapshot), never by itself.
func snapshotsByHand(dir string) func(*node.Config) {
	return func(c *node.Config) {
		c.DataDir = dir
		c.Snapshots.Every = 1 << 40
	}
}

// reads is what the test compares across processes: digests at the head
// and at a revision before the snapshot, access answers at a time and a
// revision before it, a memory view, and a query.
func reads(c *nodetest.Client, head, before uint64, at time.Time, bob, queryID string) map[string]string {
	get := func(path, token string, body any, method string) string {
		r := c.Must(http.StatusOK, method, path, token, body)
		// Every start appends a few events of its own: what is read at
		// the head is compared, not the head's number.
		delete(r.Body, "revision")
		delete(r.Body, "graph_revision")
		return fmt.Sprint(r.Body)
	}
	return map[string]string{
		"digest@head":   get(fmt.Sprintf("/v1/debug/digest?revision=%d", head), admin, nil, "GET"),
		"digest@before": get(fmt.Sprintf("/v1/debug/digest?revision=%d", before), admin, nil, "GET"),
		"bob@revision":  get(fmt.Sprintf("/v1/access/bob?revision=%d", before), admin, nil, "GET"),
		"bob@time":      get("/v1/access/bob?at="+at.Format(time.RFC3339Nano), admin, nil, "GET"),
		"bob@head":      get("/v1/access/bob", admin, nil, "GET"),
		"bob-view": get("/v1/memory/view", bob, map[string]any{"agent": "travel", "query": "lyon food", "k_cross": 10,
			"min_revision": head}, "POST"),
		"query": get("/v1/queries/"+queryID, admin, nil, "GET"),
	}
}

// A process started from a snapshot plus the tail of the log after it
// answers exactly as one that replayed the whole log: the same digest at
// the head and at a revision before the snapshot, the same access answers
// at a time and a revision before the snapshot (the snapshot carries the
// graph's history, not only its head), the same memory view and query.
func TestStartFromSnapshotMatchesRebuild(t *testing.T) {
	dir := t.TempDir()
	n, c := nodetest.StartClient(t, snapshotsByHand(dir))
	world(c)
	alice, bob := c.User("alice", "user"), c.User("bob", "user")
	grantAgent(c, "alice", "travel")
	grantAgent(c, "bob", "travel")
	// bob holds finance at `before` and at `at`; the grant is revoked
	// before the snapshot and given again after it, so a snapshot that
	// kept only the graph's head would answer both wrong.
	before := c.Must(http.StatusOK, "PUT", "/v1/grants/user-agent/bob/finance", admin, nil).Revision()
	time.Sleep(20 * time.Millisecond) // event times are the writer's clock: leave a gap to read at
	at := time.Now()
	time.Sleep(20 * time.Millisecond)
	c.Must(http.StatusCreated, "POST", "/v1/fragments", alice, map[string]any{"agent": "travel", "key": "lyon food", "value": "bouchons", "tier": "shared"})
	c.Must(http.StatusOK, "DELETE", "/v1/grants/user-agent/bob/finance", admin, nil)
	q := ask(c, alice, "What food is Lyon famous for?")
	queryID := q.Body["id"].(string)

	snap, err := n.TakeSnapshot(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	// The tail: events after the snapshot.
	grantAgent(c, "bob", "finance")
	c.Must(http.StatusCreated, "POST", "/v1/fragments", bob, map[string]any{"agent": "travel", "key": "rome ruins", "value": "colosseum", "tier": "shared"})
	head := c.Must(http.StatusOK, "DELETE", "/v1/grants/user-agent/alice/travel", admin, nil).Revision()
	if head <= snap || before >= snap {
		t.Fatalf("snapshot at %d should sit between %d and %d", snap, before, head)
	}
	want := reads(c, head, before, at, bob, queryID)
	want["rerank"] = n.Rerank.Digest()
	n.Close()

	n = nodetest.Start(t, snapshotsByHand(dir))
	if n.RestoredFrom != snap {
		t.Fatalf("the process started from revision %d, want the snapshot at %d", n.RestoredFrom, snap)
	}
	fromSnapshot := reads(nodetest.NewClient(t, n), head, before, at, bob, queryID)
	fromSnapshot["rerank"] = n.Rerank.Digest()
	n.Close()

	n = nodetest.Start(t, func(c *node.Config) { c.DataDir, c.Snapshots.Off = dir, true })
	if n.RestoredFrom != 0 {
		t.Fatalf("snapshots off, yet the process started from %d", n.RestoredFrom)
	}
	rebuilt := reads(nodetest.NewClient(t, n), head, before, at, bob, queryID)
	rebuilt["rerank"] = n.Rerank.Digest()
	for k := range want {
		if fromSnapshot[k] != rebuilt[k] || rebuilt[k] != want[k] {
			t.Errorf("%s differs:\nbefore restart: %s\nfrom snapshot:  %s\nfull rebuild:   %s", k, want[k], fromSnapshot[k], rebuilt[k])
		}
	}
	if !reflect.DeepEqual(want, rebuilt) {
		t.FailNow()
	}
}

// A snapshot the process cannot use (here: garbage stored as the newest)
// is refused and the projections are rebuilt from the whole log: the start
// succeeds and answers as before.
func TestUnusableSnapshotFallsBackToARebuild(t *testing.T) {
	dir := t.TempDir()
	n, c := nodetest.StartClient(t, snapshotsByHand(dir))
	world(c)
	c.User("alice", "user")
	grantAgent(c, "alice", "travel")
	if _, err := n.TakeSnapshot(context.Background()); err != nil {
		t.Fatal(err)
	}
	head := c.Must(http.StatusOK, "DELETE", "/v1/grants/user-agent/alice/travel", admin, nil).Revision()
	want := c.Must(http.StatusOK, "GET", fmt.Sprintf("/v1/debug/digest?revision=%d", head), admin, nil).Raw
	st, err := natsobj.Open(context.Background(), n.Log.JetStream(), natsobj.Bucket, 1)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Put(context.Background(), head, []byte("CMEMSNAP not a snapshot at all, truncated")); err != nil {
		t.Fatal(err)
	}
	n.Close()

	n = nodetest.Start(t, snapshotsByHand(dir))
	if n.RestoredFrom != 0 {
		t.Fatalf("started from an unusable snapshot at %d", n.RestoredFrom)
	}
	got := nodetest.NewClient(t, n).Must(http.StatusOK, "GET", fmt.Sprintf("/v1/debug/digest?revision=%d", head), admin, nil).Raw
	if string(got) != string(want) {
		t.Errorf("digest after the fallback rebuild = %s, want %s", got, want)
	}
}
