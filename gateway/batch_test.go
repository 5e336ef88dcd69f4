package gateway_test

import (
	"net/http"
	"testing"

	"github.com/cmem/cmem/node/nodetest"
)

// A batch is all or nothing: one refused item (named by its index) stores
// nothing of the others, and a good batch stores every item at
// consecutive revisions, later items seeing what earlier ones registered.
func TestBatchAllOrNothing(t *testing.T) {
	_, c := nodetest.StartClient(t, nil)
	bad := c.Must(http.StatusNotFound, "POST", "/v1/batch", admin, map[string]any{"items": []map[string]any{
		{"op": "register_user", "id": "u1"},
		{"op": "register_agent", "id": "a1", "description": "d"},
		{"op": "grant", "edge": "user-agent", "from": "u1", "to": "a1"},
		{"op": "grant", "edge": "user-agent", "from": "u1", "to": "nobody"},
	}})
	if idx, _ := bad.Body["index"].(float64); idx != 3 || bad.Body["code"] != "not_found" {
		t.Fatalf("refused batch answered %s, want index 3, not_found", bad.Raw)
	}
	if r := c.Do("GET", "/v1/access/u1", admin, nil); r.Status != http.StatusNotFound {
		t.Fatalf("u1 exists after a refused batch: %d %s", r.Status, r.Raw)
	}
	ok := c.Must(http.StatusOK, "POST", "/v1/batch", admin, map[string]any{"items": []map[string]any{
		{"op": "register_user", "id": "u1"},
		{"op": "register_agent", "id": "a1", "description": "d"},
		{"op": "grant", "edge": "user-agent", "from": "u1", "to": "a1"},
	}})
	items := ok.Body["items"].([]any)
	last := ok.Revision()
	for i, it := range items {
		if rev := uint64(it.(map[string]any)["revision"].(float64)); rev != last-uint64(len(items)-1-i) {
			t.Fatalf("item %d at revision %d, want consecutive revisions ending at %d: %s", i, rev, last, ok.Raw)
		}
	}
	token, _ := items[0].(map[string]any)["token"].(string)
	if token == "" {
		t.Fatalf("no token for the registered user: %s", ok.Raw)
	}
	r := c.Must(http.StatusOK, "GET", "/v1/access/u1?min_revision=0", token, nil)
	if agents := r.Body["agents"].([]any); len(agents) != 1 {
		t.Fatalf("u1's access after the batch: %s", r.Raw)
	}
	if r := c.Must(http.StatusBadRequest, "POST", "/v1/batch", admin, map[string]any{"items": []any{
		map[string]any{"op": "register_agent", "id": "a3", "description": "d"}, "not an object"}}); r.Body["index"] != 1.0 {
		t.Fatalf("a non-object item answered %s, want index 1", r.Raw)
	}
	c.Must(http.StatusBadRequest, "POST", "/v1/batch", admin, map[string]any{"items": []any{}})
	// Registering again conflicts, before anything is sent.
	again := c.Must(http.StatusConflict, "POST", "/v1/batch", admin, map[string]any{"items": []map[string]any{
		{"op": "register_agent", "id": "a2", "description": "d"},
		{"op": "register_agent", "id": "a1", "description": "d"},
	}})
	if idx, _ := again.Body["index"].(float64); idx != 1 {
		t.Fatalf("conflict answered %s, want index 1", again.Raw)
	}
}

// Every item keeps its command's rules: a user may not grant, may not
// write through an agent not granted to them, and a bad field is named.
func TestBatchAuthorizesEachItem(t *testing.T) {
	_, c := nodetest.StartClient(t, nil)
	alice := c.User("alice", "user")
	c.Must(http.StatusCreated, "POST", "/v1/agents", admin, map[string]string{"id": "planner", "description": "plans"})
	c.Must(http.StatusCreated, "POST", "/v1/agents", admin, map[string]string{"id": "secret", "description": "not alice's"})
	c.Must(http.StatusOK, "PUT", "/v1/grants/user-agent/alice/planner", admin, nil)
	for name, tc := range map[string]struct {
		items  []map[string]any
		status int
		index  float64
	}{
		"grant by a user": {[]map[string]any{
			{"op": "write_fragment", "agent": "planner", "key": "favourite food in Lyon", "value": "v", "tier": "private"},
			{"op": "grant", "edge": "user-agent", "from": "alice", "to": "secret"}}, http.StatusForbidden, 1},
		"fragment through an agent not granted": {[]map[string]any{
			{"op": "write_fragment", "agent": "planner", "key": "favourite food in Lyon", "value": "v", "tier": "private"},
			{"op": "write_fragment", "agent": "secret", "key": "favourite food in Lyon", "value": "v", "tier": "private"}}, http.StatusForbidden, 1},
		"unknown field": {[]map[string]any{
			{"op": "write_fragment", "agent": "planner", "key": "favourite food in Lyon", "value": "v", "tier": "private", "user": "bob"}}, http.StatusBadRequest, 0},
		"unknown op": {[]map[string]any{
			{"op": "write_fragment", "agent": "planner", "key": "favourite food in Lyon", "value": "v", "tier": "private"},
			{"op": "delete_everything"}}, http.StatusBadRequest, 1},
	} {
		r := c.Must(tc.status, "POST", "/v1/batch", alice, map[string]any{"items": tc.items})
		if idx, _ := r.Body["index"].(float64); idx != tc.index {
			t.Errorf("%s: answered %s, want index %v", name, r.Raw, tc.index)
		}
	}
	// Nothing of the refused batches was written; a good one writes as alice.
	view := c.Must(http.StatusOK, "POST", "/v1/memory/view", alice, map[string]any{"agent": "planner", "query": "favourite food in Lyon"})
	if got := view.Body["private"].([]any); len(got) != 0 {
		t.Fatalf("refused batches wrote %s", view.Raw)
	}
	w := c.Must(http.StatusOK, "POST", "/v1/batch", alice, map[string]any{"items": []map[string]any{
		{"op": "write_fragment", "agent": "planner", "key": "favourite food in Lyon", "value": "quenelles", "tier": "private"}}})
	f := w.Body["items"].([]any)[0].(map[string]any)["fragments"].([]any)[0].(map[string]any)
	if f["user"] != "alice" || uint64(f["revision"].(float64)) != w.Revision() {
		t.Fatalf("batch fragment %v, want alice's at revision %d", f, w.Revision())
	}
	view = c.Must(http.StatusOK, "POST", "/v1/memory/view", alice, map[string]any{"agent": "planner", "query": "favourite food in Lyon", "min_revision": w.Revision()})
	if got := view.Body["private"].([]any); len(got) != 1 {
		t.Fatalf("view after the batch: %s", view.Raw)
	}
}
