package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cmem/cmem/clients/mcp"
)

// mcpCmd runs `cmem mcp`: an MCP server over stdio (default) or streamable
// HTTP (-http ADDR), acting as the user whose token is CMEM_TOKEN.
func mcpCmd(args []string, out io.Writer) error {
	fs := flag.NewFlagSet("mcp", flag.ContinueOnError)
	fs.SetOutput(out)
	fs.Usage = func() {
		_, _ = fmt.Fprint(out, `usage: cmem mcp [-http ADDR] [-url URL] [-token TOKEN] [-user ID]

Serves cmem over MCP (stdio by default) as one cmem user: tools ask,
memory_view, write_fragment and my_access; resources cmem://access and
cmem://memory/{agent}. Every call is a call of cmem's HTTP API with the
user's token, so cmem's permission checks apply unchanged.

flags:
`)
		fs.PrintDefaults()
	}
	cfg := mcp.Config{QueryWait: 5 * time.Minute}
	fs.StringVar(&cfg.URL, "url", env("CMEM_URL", mcp.DefaultURL), "cmem API base URL (CMEM_URL)")
	fs.StringVar(&cfg.Token, "token", os.Getenv("CMEM_TOKEN"), "token of the user to act as (CMEM_TOKEN)")
	fs.StringVar(&cfg.User, "user", os.Getenv("CMEM_USER"), "that user's id, for my_access (CMEM_USER)")
	addr := fs.String("http", env("CMEM_MCP_ADDR", ""), "serve streamable HTTP on this address (e.g. 127.0.0.1:8090) instead of stdio; whoever reaches it acts as the user (CMEM_MCP_ADDR)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	srv, err := mcp.NewServer(cfg)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	if *addr == "" {
		err := srv.Run(ctx, &sdk.StdioTransport{})
		if errors.Is(err, context.Canceled) {
			return nil
		}
		return err
	}
	hs := &http.Server{Addr: *addr, Handler: mcp.HTTPHandler(srv), ReadHeaderTimeout: 10 * time.Second}
	go func() {
		<-ctx.Done()
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = hs.Shutdown(sctx)
	}()
	fmt.Fprintf(os.Stderr, "cmem mcp: streamable HTTP on http://%s as %s\n", *addr, cfg.URL)
	if err := hs.ListenAndServe(); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
