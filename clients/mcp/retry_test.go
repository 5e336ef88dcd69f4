package mcp_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cmem/cmem/clients/mcp"
)

// A tool call that cmem rate-limits is sent again after the Retry-After it
// names (the MCP server calls through clients/httpclient), so the agent
// gets the answer rather than a 429.
func TestToolCallsHonourRetryAfter(t *testing.T) {
	var calls atomic.Int32
	var first, second atomic.Int64
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch calls.Add(1) {
		case 1:
			first.Store(time.Now().UnixNano())
			w.Header().Set("Retry-After", "1")
			w.WriteHeader(http.StatusTooManyRequests)
			_, _ = w.Write([]byte(`{"error":"rate limit \"queries\" exceeded; retry after 1s","code":"rate_limited"}`))
		default:
			second.Store(time.Now().UnixNano())
			_, _ = w.Write([]byte(`{"id":"q1","status":"answered","answer":"bouchons"}`))
		}
	}))
	defer api.Close()
	srv, err := mcp.NewServer(mcp.Config{URL: api.URL, Token: "tok", User: "alice", QueryWait: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	st, ct := sdk.NewInMemoryTransports()
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = ss.Close() }()
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "test"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cs.Close() }()
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "ask", Arguments: map[string]any{"text": "Lyon?"}})
	if err != nil || res.IsError {
		t.Fatalf("ask: %v %+v", err, res)
	}
	if calls.Load() != 2 {
		t.Fatalf("%d calls of cmem, want the refused one and its retry", calls.Load())
	}
	if gap := time.Duration(second.Load() - first.Load()); gap < time.Second {
		t.Fatalf("retried after %s, Retry-After said 1s", gap)
	}
}
