package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/cmem/cmem/clients/httpclient"
	"github.com/cmem/cmem/node"
)

// The API commands (cmem user, grant, query, audit, …) talk to a running
// cmem over its HTTP API through package httpclient, as any Go client
// would.

// adminTokenFor is the admin token: the flag, else CMEM_ADMIN_TOKEN, else
// the token file in CMEM_DATA.
func adminTokenFor(flagToken string) (string, error) {
	if flagToken != "" {
		return flagToken, nil
	}
	if t := os.Getenv("CMEM_ADMIN_TOKEN"); t != "" {
		return t, nil
	}
	path := filepath.Join(env("CMEM_DATA", "./data"), node.AdminTokenFile)
	b, err := os.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("no admin token: set CMEM_ADMIN_TOKEN or -token, or run where %s exists: %w", path, err)
	}
	return strings.TrimSpace(string(b)), nil
}

// callTimeout bounds each API call of a command; it is the CLI's bound
// from before the shared client, kept so commands behave as they did.
const callTimeout = 60 * time.Second

// callAPI calls the API at base as token and returns the body of an answer
// whose status is one of want; any other answer, 2xx or not, is an
// *httpclient.Error whose message carries the API's.
func callAPI(base, token, method, path string, body any, want ...int) ([]byte, error) {
	c, err := httpclient.New(httpclient.Config{BaseURL: base, Token: token, Timeout: callTimeout})
	if err != nil {
		return nil, err
	}
	var raw json.RawMessage
	status, err := c.Do(context.Background(), method, path, body, &raw)
	if err != nil {
		return nil, err
	}
	if !slices.Contains(want, status) {
		return nil, httpclient.NewError(status, raw)
	}
	return raw, nil
}
