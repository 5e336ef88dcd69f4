package gateway_test

import (
	"net/http"
	"slices"
	"testing"

	"github.com/cmem/cmem/node/nodetest"
)

// graphItems returns the provenance resources of every item of a graph
// memory answer, and how many items it has.
func graphItems(body map[string]any) (items int, resources []string) {
	for _, part := range []string{"insights", "queries", "interactions"} {
		list, _ := body[part].([]any)
		for _, it := range list {
			items++
			prov := it.(map[string]any)["provenance"].(map[string]any)
			for _, r := range prov["resources"].([]any) {
				resources = append(resources, r.(string))
			}
		}
	}
	return items, resources
}

// TestGraphMemoryAPI: queries run through the pipeline become alice's
// graph memory, served with their provenance; revoking the resource they
// rest on hides every item that names it; bad input is a clear 4xx.
func TestGraphMemoryAPI(t *testing.T) {
	_, c := nodetest.StartClient(t, nil)
	alice, bob := c.User("alice", "user"), c.User("bob", "user")
	c.Must(http.StatusCreated, "POST", "/v1/agents", admin, map[string]string{"id": "planner", "description": "plans trips and city food"})
	c.Must(http.StatusCreated, "POST", "/v1/resources", admin, map[string]any{"id": "guide", "kind": "knowledge_base", "description": "city guide",
		"documents": []map[string]string{{"id": "d1", "text": "Lyon is famous for its bouchons."}}})
	c.Must(http.StatusOK, "PUT", "/v1/grants/user-agent/alice/planner", admin, nil)
	c.Must(http.StatusOK, "PUT", "/v1/grants/user-agent/bob/planner", admin, nil)
	c.Must(http.StatusOK, "PUT", "/v1/grants/agent-resource/planner/guide", admin, nil)
	var rev uint64
	for _, q := range []string{"What food is Lyon famous for?", "What food is Lyon known for?"} {
		rev = c.Must(http.StatusOK, "POST", "/v1/queries", alice, map[string]any{"text": q}).Revision()
	}
	ask := map[string]any{"agent": "planner", "query": "food in Lyon", "min_revision": rev}
	r := c.Must(http.StatusOK, "POST", "/v1/memory/graph", alice, ask)
	n, res := graphItems(r.Body)
	if len(r.Body["queries"].([]any)) == 0 || len(r.Body["insights"].([]any)) == 0 || len(r.Body["interactions"].([]any)) == 0 {
		t.Fatalf("alice's graph memory lacks a tier: %s", r.Raw)
	}
	if !slices.Contains(res, "guide") {
		t.Fatalf("no item of %d rests on guide, which answered the first query: %s", n, r.Raw)
	}
	if n, _ := graphItems(c.Must(http.StatusOK, "POST", "/v1/memory/graph", bob, ask).Body); n != 0 {
		t.Fatalf("bob sees %d items of alice's graph memory", n)
	}

	c.Must(http.StatusOK, "DELETE", "/v1/grants/agent-resource/planner/guide", admin, nil)
	r = c.Must(http.StatusOK, "POST", "/v1/memory/graph", alice, ask)
	if _, res := graphItems(r.Body); slices.Contains(res, "guide") {
		t.Fatalf("after planner lost guide, graph memory still shows what rests on it: %s", r.Raw)
	}

	wantError(t, c.Must(http.StatusBadRequest, "POST", "/v1/memory/graph", alice, map[string]any{"query": "food"}), "invalid", "agent")
	wantError(t, c.Must(http.StatusBadRequest, "POST", "/v1/memory/graph", alice, map[string]any{"agent": "planner", "query": " "}), "invalid", "query")
	c.Must(http.StatusBadRequest, "POST", "/v1/memory/graph", alice, map[string]any{"agent": "planner", "query": "q", "k": 3})
	c.Must(http.StatusBadRequest, "POST", "/v1/memory/graph", alice, `{"agent": "planner", "query": `)
	c.Must(http.StatusForbidden, "POST", "/v1/memory/graph", alice, map[string]any{"agent": "nobody", "query": "q"})
	c.Must(http.StatusForbidden, "POST", "/v1/memory/graph", admin, map[string]any{"agent": "planner", "query": "q"})
	c.Must(http.StatusUnauthorized, "POST", "/v1/memory/graph", "", map[string]any{"agent": "planner", "query": "q"})
}
