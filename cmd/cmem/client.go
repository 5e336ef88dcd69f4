package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/cmem/cmem/node"
)

// The API commands (cmem user, grant, query, audit, …) talk to a running
// cmem over its HTTP API, as any client would.

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

// doJSON calls the API as token and returns the body of a want answer;
// other answers become an error carrying the API's message.
func doJSON(method, u, token string, body any, want int) ([]byte, error) {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return nil, err
		}
		rd = bytes.NewReader(b)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, method, u, rd)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer func() { _ = resp.Body.Close() }()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != want {
		return nil, &statusError{status: resp.StatusCode, body: raw}
	}
	return raw, nil
}

// statusError is an answer other than the one a command wanted; its message
// carries the API's error and code.
type statusError struct {
	status int
	body   []byte
}

func (e *statusError) Error() string {
	var b struct{ Error, Code string }
	if json.Unmarshal(e.body, &b) == nil && b.Error != "" {
		return fmt.Sprintf("%s (%d %s)", b.Error, e.status, b.Code)
	}
	return fmt.Sprintf("HTTP %d: %s", e.status, e.body)
}

func asStatus(err error, target **statusError) bool { return errors.As(err, target) }
