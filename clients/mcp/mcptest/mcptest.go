// Package mcptest drives one MCP client session against a cmem MCP server,
// over any transport, asserting what a user may and may not do through it.
package mcptest

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cmem/cmem/clients/mcp"
	"github.com/cmem/cmem/node/nodetest"
)

// Setup starts cmem with alice allowed planner (which may use the guide) but
// not critic, and returns the MCP config acting as alice.
func Setup(t *testing.T) mcp.Config {
	t.Helper()
	_, c := nodetest.StartClient(t, nil)
	admin := nodetest.AdminToken
	alice := c.User("alice", "user")
	c.Must(http.StatusCreated, "POST", "/v1/agents", admin, map[string]string{"id": "planner", "description": "plans trips"})
	c.Must(http.StatusCreated, "POST", "/v1/agents", admin, map[string]string{"id": "critic", "description": "reviews restaurants"})
	c.Must(http.StatusCreated, "POST", "/v1/resources", admin, map[string]any{"id": "guide", "kind": "knowledge_base", "description": "city guide",
		"documents": []map[string]string{{"id": "lyon", "text": "Lyon is known for its bouchons."}}})
	c.Must(http.StatusOK, "PUT", "/v1/grants/user-agent/alice/planner", admin, nil)
	c.Must(http.StatusOK, "PUT", "/v1/grants/agent-resource/planner/guide", admin, nil)
	return mcp.Config{URL: c.Base, Token: alice, User: "alice", QueryWait: 60 * time.Second}
}

// Exercise runs one client session over t: initialize, tools/list, every
// tool, a refused write through an agent alice may not use, and the
// resources.
func Exercise(ctx context.Context, t *testing.T, tr sdk.Transport) {
	t.Helper()
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, tr, nil)
	if err != nil {
		t.Fatalf("initialize: %v", err)
	}
	defer func() { _ = cs.Close() }()
	if got := cs.InitializeResult().ServerInfo.Name; got != "cmem" {
		t.Fatalf("server %q", got)
	}
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range tools.Tools {
		names = append(names, tool.Name)
	}
	slices.Sort(names)
	if want := []string{"ask", "memory_view", "my_access", "write_fragment"}; !slices.Equal(names, want) {
		t.Fatalf("tools %v, want %v", names, want)
	}
	call := func(name string, args map[string]any) (map[string]any, *sdk.CallToolResult) {
		t.Helper()
		res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: name, Arguments: args})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var out map[string]any
		if !res.IsError {
			b, _ := json.Marshal(res.StructuredContent)
			_ = json.Unmarshal(b, &out)
		}
		return out, res
	}
	text := func(res *sdk.CallToolResult) string {
		var sb strings.Builder
		for _, c := range res.Content {
			if tc, ok := c.(*sdk.TextContent); ok {
				sb.WriteString(tc.Text)
			}
		}
		return sb.String()
	}

	acc, res := call("my_access", nil)
	if res.IsError || !strings.Contains(mustJSON(acc), `"planner"`) || strings.Contains(mustJSON(acc), "critic") {
		t.Fatalf("my_access: %s %s", mustJSON(acc), text(res))
	}
	w, res := call("write_fragment", map[string]any{"agent": "planner", "key": "lyon", "value": "bouchons are small restaurants", "resources": []string{"guide"}})
	if res.IsError || w["revision"] == nil {
		t.Fatalf("write_fragment: %s", text(res))
	}
	// The refusal: critic is not one of alice's agents, so cmem answers 403
	// and the MCP client sees a tool error, not a fragment.
	if _, res := call("write_fragment", map[string]any{"agent": "critic", "key": "k", "value": "v"}); !res.IsError || !strings.Contains(text(res), "403") {
		t.Fatalf("write through critic was not refused: %s", text(res))
	}
	if _, res := call("memory_view", map[string]any{"agent": "critic", "query": "lyon"}); !res.IsError || !strings.Contains(text(res), "403") {
		t.Fatalf("view through critic was not refused: %s", text(res))
	}
	v, res := call("memory_view", map[string]any{"agent": "planner", "query": "lyon"})
	if res.IsError || !strings.Contains(mustJSON(v), "bouchons are small") {
		t.Fatalf("memory_view: %s %s", mustJSON(v), text(res))
	}
	a, res := call("ask", map[string]any{"text": "Where should I eat in Lyon?"})
	if res.IsError || a["status"] != "answered" || a["answer"] == "" {
		t.Fatalf("ask: %s %s", mustJSON(a), text(res))
	}

	rr, err := cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: "cmem://memory/planner"})
	if err != nil || len(rr.Contents) != 1 || !strings.Contains(rr.Contents[0].Text, "bouchons are small") {
		t.Fatalf("read cmem://memory/planner: %v %+v", err, rr)
	}
	_, err = cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: "cmem://memory/critic"})
	var rpcErr *jsonrpc.Error
	if err == nil || !strings.Contains(err.Error(), "403") || !errors.As(err, &rpcErr) || rpcErr.Code != mcp.CodeRefused {
		t.Fatalf("read cmem://memory/critic: %v, want JSON-RPC code %d", err, mcp.CodeRefused)
	}
	if rr, err := cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: "cmem://access"}); err != nil || !strings.Contains(rr.Contents[0].Text, "planner") {
		t.Fatalf("read cmem://access: %v", err)
	}
}

// mustJSON is v as JSON text.
func mustJSON(v any) string { b, _ := json.Marshal(v); return string(b) }
