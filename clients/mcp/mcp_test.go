package mcp_test

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cmem/cmem/clients/mcp"
	"github.com/cmem/cmem/clients/mcp/mcptest"
)

func TestSessionOverMemoryAndStreamableHTTP(t *testing.T) {
	cfg := mcptest.Setup(t)
	srv, err := mcp.NewServer(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()

	t.Run("in-memory", func(t *testing.T) {
		st, ct := sdk.NewInMemoryTransports()
		ss, err := srv.Connect(ctx, st, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer func() { _ = ss.Close() }()
		mcptest.Exercise(ctx, t, ct)
	})
	t.Run("streamable-http", func(t *testing.T) {
		hs := httptest.NewServer(mcp.HTTPHandler(srv))
		defer hs.Close()
		mcptest.Exercise(ctx, t, &sdk.StreamableClientTransport{Endpoint: hs.URL, DisableStandaloneSSE: true})
	})
}

func TestConfigValidate(t *testing.T) {
	err := mcp.Config{URL: "ftp://x"}.Validate()
	for _, want := range []string{"URL", "Token", "QueryWait"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Validate() = %v, want it to mention %s", err, want)
		}
	}
}
