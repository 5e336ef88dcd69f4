package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"
)

// healthCmd runs `cmem health`: exit 0 when GET /healthz answers 200, for
// container health checks (the image has no shell, curl or wget).
func healthCmd(args []string, out io.Writer) error {
	fs := flag.NewFlagSet("health", flag.ContinueOnError)
	fs.SetOutput(out)
	base := fs.String("url", env("CMEM_URL", "http://127.0.0.1:8080"), "base URL of a cmem gateway, or of a worker's -metrics-addr (CMEM_URL)")
	var ev envDefaults
	timeout := fs.Duration("timeout", ev.duration("CMEM_HEALTH_TIMEOUT", 3*time.Second), "give up after this long (CMEM_HEALTH_TIMEOUT)")
	fs.Usage = func() {
		_, _ = fmt.Fprint(out, "usage: cmem health [-url URL] [-timeout 3s]\n\nflags:\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	if err := ev.err(); err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), *timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, strings.TrimSuffix(*base, "/")+"/healthz", nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer func() { _ = resp.Body.Close() }()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("unhealthy: %s answered %d", req.URL, resp.StatusCode)
	}
	_, err = fmt.Fprintln(out, "ok")
	return err
}
