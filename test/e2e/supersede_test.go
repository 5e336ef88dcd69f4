package e2e_test

import (
	"net/http"
	"slices"
	"testing"

	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/node"
	"github.com/cmem/cmem/node/nodetest"
	"github.com/cmem/cmem/shred"
)

// Deleting the current version of a fact crypto-shreds the versions it
// superseded too: no key of either is left on disk, and no read shows them.
func TestDeleteFragmentShredsItsSupersededVersions(t *testing.T) {
	dir := t.TempDir()
	n := nodetest.Start(t, func(c *node.Config) { c.DataDir = dir })
	w := newErasureWorld(t, n)
	c := w.c
	write := func(value, at string) map[string]any {
		r := c.Must(http.StatusCreated, "POST", "/v1/fragments", w.alice, map[string]any{"agent": "planner", "resources": []string{},
			"key": "Lumen revenue", "value": value, "tier": "shared", "observed_at": at})
		return r.Body["fragments"].([]any)[0].(map[string]any)
	}
	old := write("zqxoldversion 41 million, said last week", "2023-05-08")
	cur := write("zqxnewversion 45 million", "2023-08-01")
	if cur["supersedes"] != old["id"] {
		t.Fatalf("the second write supersedes %v, want %v", cur["supersedes"], old["id"])
	}
	var keys [][]byte
	for _, f := range []map[string]any{old, cur} {
		k, err := n.Keys.Key(t.Context(), shred.KeyID(events.DataSubject{User: "alice", Fragment: f["id"].(string)}))
		if err != nil {
			t.Fatal(err)
		}
		keys = append(keys, k)
	}
	if hits := filesContaining(t, dir, []byte("2023-05-08T00:00:00Z")); len(hits) == 0 {
		t.Fatal("observed_at (metadata, in clear) is in no file: the search for content in clear cannot see the log")
	}
	for _, m := range []string{"zqxoldversion", "zqxnewversion", "2023-05-01"} {
		if hits := filesContaining(t, dir, []byte(m)); len(hits) > 0 {
			t.Fatalf("%s in clear in %v: content and its resolved dates must be sealed", m, hits)
		}
	}
	c.Must(http.StatusOK, "DELETE", "/v1/fragments/"+cur["id"].(string), w.alice, nil)
	for i, k := range keys {
		if hits := filesContaining(t, dir, k); len(hits) > 0 {
			t.Errorf("version %d's key is still in %v", i, hits)
		}
	}
	for _, tok := range []string{w.alice, w.bob} {
		if ids := viewIDs(c, tok); slices.Contains(ids, old["id"].(string)) || slices.Contains(ids, cur["id"].(string)) {
			t.Errorf("view after deleting the fact = %v", ids)
		}
		c.Must(http.StatusNotFound, "GET", "/v1/fragments/"+old["id"].(string)+"/history?agent=planner", tok, nil)
	}
}
