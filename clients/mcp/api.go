package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// Config says which cmem to call and as whom.
type Config struct {
	// URL is the cmem API base URL (CMEM_URL).
	URL string
	// Token is the bearer token of the user the server acts as (CMEM_TOKEN).
	Token string
	// User is that user's id (CMEM_USER); my_access and cmem://access need it.
	User string
	// QueryWait bounds how long the ask tool waits for an answer.
	QueryWait time.Duration
	// HTTPClient calls cmem; nil is http.DefaultClient.
	HTTPClient *http.Client
}

// DefaultURL is where cmem serve listens by default.
const DefaultURL = "http://127.0.0.1:8080"

// Validate reports every problem with c.
func (c Config) Validate() error {
	var errs []error
	if u, err := url.Parse(c.URL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		errs = append(errs, fmt.Errorf("mcp: URL must be an http(s) URL, got %q", c.URL))
	}
	if c.Token == "" {
		errs = append(errs, errors.New("mcp: Token is required (CMEM_TOKEN: the token of the user to act as)"))
	}
	if c.QueryWait <= 0 {
		errs = append(errs, errors.New("mcp: QueryWait must be positive"))
	}
	return errors.Join(errs...)
}

// APIError is an answer of cmem other than success: its status, code and
// message, as the HTTP API gave them.
type APIError struct {
	Status  int
	Code    string
	Message string
}

func (e *APIError) Error() string {
	return fmt.Sprintf("cmem refused: %s (%d %s)", e.Message, e.Status, e.Code)
}

// api calls cmem as one user.
type api struct{ cfg Config }

// call sends body as JSON and decodes a 2xx answer into out; it returns the
// status so callers can tell 200 from 202.
func (a api) call(ctx context.Context, method, path string, body, out any) (int, error) {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return 0, err
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, strings.TrimSuffix(a.cfg.URL, "/")+path, rd)
	if err != nil {
		return 0, err
	}
	req.Header.Set("Authorization", "Bearer "+a.cfg.Token)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	hc := a.cfg.HTTPClient
	if hc == nil {
		hc = http.DefaultClient
	}
	resp, err := hc.Do(req)
	if err != nil {
		return 0, fmt.Errorf("calling cmem at %s: %w", a.cfg.URL, err)
	}
	defer func() { _ = resp.Body.Close() }()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return resp.StatusCode, err
	}
	if resp.StatusCode/100 != 2 {
		e := &APIError{Status: resp.StatusCode}
		var b struct{ Error, Code string }
		if json.Unmarshal(raw, &b) == nil && b.Error != "" {
			e.Code, e.Message = b.Code, b.Error
		} else {
			e.Message = strings.TrimSpace(string(raw))
		}
		return resp.StatusCode, e
	}
	return resp.StatusCode, json.Unmarshal(raw, out)
}
