package main_test

import (
	"context"
	"os"
	"os/exec"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cmem/cmem/clients/mcp/mcptest"
)

// TestMCPOverStdio runs an MCP client session against the real `cmem mcp`
// binary over stdio, acting as alice, including the refused calls through
// an agent alice may not use.
func TestMCPOverStdio(t *testing.T) {
	cfg := mcptest.Setup(t)
	cmd := exec.Command(binary, "mcp")
	cmd.Env = append(os.Environ(), "CMEM_URL="+cfg.URL, "CMEM_TOKEN="+cfg.Token, "CMEM_USER="+cfg.User)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	mcptest.Exercise(ctx, t, &sdk.CommandTransport{Command: cmd})
}
