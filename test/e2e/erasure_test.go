package e2e_test

import (
	"bytes"
	"context"
	"github.com/cmem/cmem/events"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/cmem/cmem/node"
	"github.com/cmem/cmem/node/nodetest"
	"github.com/cmem/cmem/shred"
)

var graphRevision = regexp.MustCompile(`"graph_revision":[0-9]+`)

// filesContaining returns the files under dir whose bytes contain needle.
func filesContaining(t *testing.T, dir string, needle []byte) []string {
	t.Helper()
	var hits []string
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		raw, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if bytes.Contains(raw, needle) {
			hits = append(hits, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return hits
}

// erasureWorld: alice and bob share agent planner; alice writes a shared
// fragment with a marker, bob one of his own, and each asks a query.
type erasureWorld struct {
	c                   *nodetest.Client
	alice, bob          string
	aliceFrag, bobFrag  string
	aliceQuery, bobRead string
}

const (
	aliceMarker = "zqxalicemarker"
	bobMarker   = "zqxbobmarker"
)

func newErasureWorld(t *testing.T, n *node.Node) erasureWorld {
	c := nodetest.NewClient(t, n)
	const admin = nodetest.AdminToken
	w := erasureWorld{c: c, alice: c.User("alice", "user"), bob: c.User("bob", "user")}
	c.Must(http.StatusCreated, "POST", "/v1/agents", admin, map[string]string{"id": "planner", "description": "plans trips and remembers travel facts"})
	c.Must(http.StatusOK, "PUT", "/v1/grants/user-agent/alice/planner", admin, nil)
	c.Must(http.StatusOK, "PUT", "/v1/grants/user-agent/bob/planner", admin, nil)
	var last uint64
	write := func(token, key, value string) string {
		r := c.Must(http.StatusCreated, "POST", "/v1/fragments", token, map[string]any{
			"agent": "planner", "resources": []string{}, "key": key, "value": value, "tier": "shared"})
		last = r.Revision()
		return r.Body["fragments"].([]any)[0].(map[string]any)["id"].(string)
	}
	w.aliceFrag = write(w.alice, "travel budget "+aliceMarker, "the travel budget is "+aliceMarker+"-4200")
	w.bobFrag = write(w.bob, "travel airline "+bobMarker, "bob flies with "+bobMarker+"-air")
	// A query reads the vector view as far as it is projected (queries
	// take no min_revision); an external view has its own runner, so the
	// world waits for it to hold both writes before anyone asks.
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	if err := n.ViewRunner.WaitFor(ctx, last); err != nil {
		t.Fatalf("the vector view did not reach revision %d: %v", last, err)
	}
	r := c.Must(http.StatusOK, "POST", "/v1/queries", w.alice, map[string]any{"text": "what is my travel budget " + aliceMarker + "-q"})
	w.aliceQuery = r.Body["id"].(string)
	r = c.Must(http.StatusOK, "POST", "/v1/queries", w.bob, map[string]any{"text": "what is the travel budget"})
	w.bobRead = r.Body["id"].(string)
	if !slices.Contains(strs(r.Body["fragments_read"]), w.aliceFrag) {
		t.Fatalf("bob's query did not read alice's fragment: %s", r.Raw)
	}
	return w
}

func viewIDs(c *nodetest.Client, token string) []string {
	r := c.Must(http.StatusOK, "POST", "/v1/memory/view", token, map[string]any{"agent": "planner", "query": "travel budget airline", "k_user": 10, "k_cross": 10})
	return append(idsOf(r, "private"), idsOf(r, "shared")...)
}

// Content never reaches the store files in clear; erasing alice destroys
// her keys (their bytes leave the files), drops her content from every
// view and from the answers derived from it, refuses her token, keeps
// bob's memory and the audit's ids, and a rebuild from the log brings
// none of it back.
func TestEraseUserShredsContent(t *testing.T) {
	dir := t.TempDir()
	n := nodetest.Start(t, func(c *node.Config) { c.DataDir = dir })
	w := newErasureWorld(t, n)
	c := w.c
	for _, m := range []string{aliceMarker, bobMarker} {
		if hits := filesContaining(t, dir, []byte(m)); len(hits) > 0 {
			t.Fatalf("marker %s in clear in %v before any erasure: content must be sealed", m, hits)
		}
	}
	ctx := t.Context()
	var keys [][]byte
	for _, id := range []string{shred.KeyID(events.DataSubject{User: "alice", Fragment: w.aliceFrag}), shred.KeyID(events.DataSubject{User: "alice", Query: w.aliceQuery})} {
		k, err := n.Keys.Key(ctx, id)
		if err != nil {
			t.Fatalf("key %s: %v", id, err)
		}
		if len(filesContaining(t, dir, k)) == 0 {
			t.Fatalf("key %s not found in the store files: the byte search cannot be trusted", id)
		}
		keys = append(keys, k)
	}

	c.Must(http.StatusForbidden, "DELETE", "/v1/users/alice", w.bob, nil)
	c.Must(http.StatusOK, "DELETE", "/v1/users/alice", w.alice, nil) // "forget me"

	for i, k := range keys {
		if hits := filesContaining(t, dir, k); len(hits) > 0 {
			t.Errorf("key %d still in %v after erasure", i, hits)
		}
	}
	c.Must(http.StatusUnauthorized, "GET", "/v1/access/alice", w.alice, nil)
	if r := c.Must(http.StatusOK, "GET", "/v1/access/alice", nodetest.AdminToken, nil); len(r.Body["agents"].([]any)) != 0 {
		t.Errorf("an erased user's grants did not end: %s", r.Raw)
	}
	checkErased := func(c *nodetest.Client) {
		t.Helper()
		if ids := viewIDs(c, w.bob); slices.Contains(ids, w.aliceFrag) || !slices.Contains(ids, w.bobFrag) {
			t.Errorf("bob's view after alice's erasure = %v; want %s and not %s", ids, w.bobFrag, w.aliceFrag)
		}
		r := c.Must(http.StatusOK, "GET", "/v1/queries/"+w.aliceQuery, nodetest.AdminToken, nil)
		if strings.Contains(string(r.Raw), aliceMarker) {
			t.Errorf("alice's query after erasure: %s", r.Raw)
		}
		// Bob may still read his query (planner is his), but what it took
		// from alice's fragment is gone with her.
		r = c.Must(http.StatusOK, "GET", "/v1/queries/"+w.bobRead, w.bob, nil)
		if strings.Contains(string(r.Raw), aliceMarker) || !strings.Contains(string(r.Raw), `"answer":"[erased]"`) {
			t.Errorf("bob's query that read alice's fragment, after erasure: %s", r.Raw)
		}
		r = c.Must(http.StatusOK, "GET", "/v1/audit/reads?fragment="+w.aliceFrag, nodetest.AdminToken, nil)
		if !strings.Contains(string(r.Raw), `"bob"`) {
			t.Errorf("the audit forgot who read alice's fragment: %s", r.Raw)
		}
	}
	checkErased(c)
	snapshot := func(c *nodetest.Client) string {
		var b strings.Builder
		for _, q := range []string{w.aliceQuery, w.bobRead} {
			// graph_revision is the graph a delivery was checked against: each
			// GET logs a delivery, so it moves; everything else must not.
			raw := c.Must(http.StatusOK, "GET", "/v1/queries/"+q, nodetest.AdminToken, nil).Raw
			b.WriteString(graphRevision.ReplaceAllString(string(raw), ""))
		}
		b.WriteString(strings.Join(viewIDs(c, w.bob), ","))
		return b.String()
	}
	before := snapshot(c)
	fragments := n.Fragments.Len()

	// A rebuild from the log: a fresh node on the same files reaches
	// exactly the post-erasure state.
	n.Close()
	n2, c2 := nodetest.StartClient(t, func(c *node.Config) { c.DataDir = dir })
	checkErased(c2)
	if after := snapshot(c2); after != before {
		t.Errorf("the rebuild differs from the state it was rebuilt from:\n%s\n%s", before, after)
	}
	if got := n2.Fragments.Len(); got != fragments || got != 1 {
		t.Errorf("fragment registry after the rebuild holds %d, before %d, want 1 (bob's)", got, fragments)
	}
	if _, _, err := n2.Keys.DataKey(ctx, events.DataSubject{User: "alice"}); err == nil {
		t.Error("an erased user was given a new key")
	}
}

// Deleting a fragment: only its owner or an admin may; it leaves every view
// and the answers that read it, and its key leaves the files.
func TestDeleteFragment(t *testing.T) {
	dir := t.TempDir()
	n := nodetest.Start(t, func(c *node.Config) { c.DataDir = dir })
	w := newErasureWorld(t, n)
	c := w.c
	k, err := n.Keys.Key(t.Context(), shred.KeyID(events.DataSubject{User: "alice", Fragment: w.aliceFrag}))
	if err != nil {
		t.Fatal(err)
	}
	c.Must(http.StatusForbidden, "DELETE", "/v1/fragments/"+w.aliceFrag, w.bob, nil)
	c.Must(http.StatusNotFound, "DELETE", "/v1/fragments/00000000-0000-4000-8000-000000000000", w.alice, nil)
	c.Must(http.StatusBadRequest, "DELETE", "/v1/fragments/not%20an%20id", w.alice, nil)
	c.Must(http.StatusOK, "DELETE", "/v1/fragments/"+w.aliceFrag, w.alice, nil)
	if hits := filesContaining(t, dir, k); len(hits) > 0 {
		t.Errorf("the deleted fragment's key is still in %v", hits)
	}
	for _, tok := range []string{w.alice, w.bob} {
		if ids := viewIDs(c, tok); slices.Contains(ids, w.aliceFrag) || !slices.Contains(ids, w.bobFrag) {
			t.Errorf("view after deletion = %v", ids)
		}
	}
	r := c.Must(http.StatusOK, "GET", "/v1/queries/"+w.bobRead, w.bob, nil)
	if strings.Contains(string(r.Raw), aliceMarker) {
		t.Errorf("bob's answer still quotes the deleted fragment: %s", r.Raw)
	}
	// A new answer cannot read it either.
	r = c.Must(http.StatusOK, "POST", "/v1/queries", w.bob, map[string]any{"text": "what is the travel budget"})
	if strings.Contains(string(r.Raw), aliceMarker) || slices.Contains(strs(r.Body["fragments_read"]), w.aliceFrag) {
		t.Errorf("an answer after the deletion read the deleted fragment: %s", r.Raw)
	}
	if !slices.Contains(strs(r.Body["fragments_read"]), w.bobFrag) {
		t.Errorf("bob's own fragment went with alice's: %s", r.Raw)
	}
	c.Must(http.StatusNotFound, "DELETE", "/v1/fragments/"+w.aliceFrag, w.alice, nil)
}

// A rotated token is refused at once by a second gateway on the same log,
// as a revoke is; revocation, deactivation and reactivation likewise.
func TestTokenLifecycleAcrossGateways(t *testing.T) {
	a := nodetest.Start(t, nil)
	b := nodetest.Start(t, func(c *node.Config) { c.NATSURL = a.Log.ConnectURL() })
	ca, cb := nodetest.NewClient(t, a), nodetest.NewClient(t, b)
	const admin = nodetest.AdminToken
	old := ca.User("carol", "user")
	cb.Must(http.StatusOK, "GET", "/v1/access/carol", old, nil)
	for range 5 {
		r := ca.Must(http.StatusCreated, "POST", "/v1/users/carol/token", old, nil)
		fresh := r.Body["token"].(string)
		cb.Must(http.StatusUnauthorized, "GET", "/v1/access/carol", old, nil)
		cb.Must(http.StatusOK, "GET", "/v1/access/carol", fresh, nil)
		old = fresh
	}
	ca.Must(http.StatusForbidden, "POST", "/v1/users/carol/deactivate", old, nil)
	ca.Must(http.StatusOK, "POST", "/v1/users/carol/deactivate", admin, nil)
	cb.Must(http.StatusUnauthorized, "GET", "/v1/access/carol", old, nil)
	ca.Must(http.StatusOK, "POST", "/v1/users/carol/reactivate", admin, nil)
	cb.Must(http.StatusOK, "GET", "/v1/access/carol", old, nil)
	ca.Must(http.StatusOK, "DELETE", "/v1/users/carol/token", old, nil)
	cb.Must(http.StatusUnauthorized, "GET", "/v1/access/carol", old, nil)
	r := ca.Must(http.StatusCreated, "POST", "/v1/users/carol/token", admin, nil)
	cb.Must(http.StatusOK, "GET", "/v1/access/carol", r.Body["token"].(string), nil)
	ca.Must(http.StatusNotFound, "POST", "/v1/users/nobody/token", admin, nil)
}

// On the bus: a deactivated user's open connection asks nothing more, and
// its token cannot open a new one; an erased user's neither.
func TestLifecycleOnTheBus(t *testing.T) {
	n, c := nodetest.StartClient(t, nil)
	dave := c.User("dave", "user")
	nc, err := nats.Connect(n.Log.ClientURL(), nats.Token(dave), nats.CustomInboxPrefix("_INBOX.dave"))
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	c.Must(http.StatusOK, "POST", "/v1/users/dave/deactivate", nodetest.AdminToken, nil)
	msg, err := nc.Request("cmem.query.dave", []byte(`{"text":"anything"}`), 30*time.Second)
	if err != nil || !strings.Contains(string(msg.Data), `"code":"unauthenticated"`) {
		t.Fatalf("a deactivated user's open connection asked: %s (%v)", msgData(msg), err)
	}
	if _, err := nats.Connect(n.Log.ClientURL(), nats.Token(dave)); err == nil {
		t.Fatal("a deactivated user's token opened a bus connection")
	}
	c.Must(http.StatusOK, "POST", "/v1/users/dave/reactivate", nodetest.AdminToken, nil)
	nc2, err := nats.Connect(n.Log.ClientURL(), nats.Token(dave))
	if err != nil {
		t.Fatalf("a reactivated user cannot connect: %v", err)
	}
	nc2.Close()
	c.Must(http.StatusOK, "DELETE", "/v1/users/dave", nodetest.AdminToken, nil)
	if _, err := nats.Connect(n.Log.ClientURL(), nats.Token(dave)); err == nil {
		t.Fatal("an erased user's token opened a bus connection")
	}
	c.Must(http.StatusNotFound, "POST", "/v1/users/dave/token", nodetest.AdminToken, nil)
}
