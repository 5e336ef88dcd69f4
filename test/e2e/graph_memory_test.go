package e2e_test

import (
	"context"
	"log/slog"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/cmem/cmem/node/nodetest"
	"github.com/cmem/cmem/projectors"
	"github.com/cmem/cmem/projectors/graphmem"
)

// TestGraphMemoryErasureAndRebuild: deleting a fragment a query read takes
// that query out of graph memory (its text never comes back), and graph
// memory rebuilt from the real (sealed) log equals the live one.
func TestGraphMemoryErasureAndRebuild(t *testing.T) {
	n, c := nodetest.StartClient(t, nil)
	admin := nodetest.AdminToken
	alice := c.User("alice", "user")
	c.Must(http.StatusCreated, "POST", "/v1/agents", admin, map[string]string{"id": "planner", "description": "plans trips and city food"})
	c.Must(http.StatusCreated, "POST", "/v1/resources", admin, map[string]any{"id": "guide", "kind": "knowledge_base", "description": "city guide",
		"documents": []map[string]string{{"id": "d1", "text": "Lyon is famous for its bouchons."}}})
	c.Must(http.StatusOK, "PUT", "/v1/grants/user-agent/alice/planner", admin, nil)
	c.Must(http.StatusOK, "PUT", "/v1/grants/agent-resource/planner/guide", admin, nil)
	c.Must(http.StatusOK, "POST", "/v1/queries", alice, map[string]any{"text": "What food is Lyon famous for?"})
	second := c.Must(http.StatusOK, "POST", "/v1/queries", alice, map[string]any{"text": "Which dishes is Lyon known for?"})
	read, _ := second.Body["fragments_read"].([]any)
	if len(read) == 0 {
		t.Fatalf("the second query read no memory, nothing to erase: %s", second.Raw)
	}
	ask := map[string]any{"agent": "planner", "query": "food in Lyon", "min_revision": second.Revision()}
	if r := c.Must(http.StatusOK, "POST", "/v1/memory/graph", alice, ask); !strings.Contains(string(r.Raw), "Which dishes") {
		t.Fatalf("the second query is not in graph memory: %s", r.Raw)
	}
	del := c.Must(http.StatusOK, "DELETE", "/v1/fragments/"+read[0].(string), alice, nil)
	ask["min_revision"] = del.Revision()
	r := c.Must(http.StatusOK, "POST", "/v1/memory/graph", alice, ask)
	if strings.Contains(string(r.Raw), "Which dishes") || !strings.Contains(string(r.Raw), "famous for") {
		t.Fatalf("after the fragment it read was deleted, graph memory must hold the first query only: %s", r.Raw)
	}

	// Rebuild from the log into a fresh projection and compare.
	fresh, err := graphmem.New(graphmem.Config{}, n.Embedder)
	if err != nil {
		t.Fatal(err)
	}
	runner, err := projectors.NewRunner(n.Log, slog.Default(), fresh)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	go func() { _ = runner.Named("graph-rebuild").Run(ctx) }()
	head, err := n.Log.Head(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	if err := runner.WaitFor(ctx, head); err != nil {
		t.Fatal(err)
	}
	if err := n.Runner.WaitFor(ctx, head); err != nil {
		t.Fatal(err)
	}
	live, rebuilt := n.GraphMemory.State(), fresh.State()
	if len(live.Users["alice"].Queries) != 1 || !reflect.DeepEqual(live, rebuilt) {
		t.Fatalf("rebuilt graph memory differs from the live one:\n live    %+v\n rebuilt %+v", live, rebuilt)
	}
}
