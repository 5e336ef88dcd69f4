package httpclient

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
)

// Client calls one cmem as one caller. It is safe for concurrent use.
type Client struct {
	cfg Config
}

// New returns a client for cfg with its defaults filled in, or every
// problem with cfg.
func New(cfg Config) (*Client, error) {
	cfg = cfg.WithDefaults()
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	return &Client{cfg: cfg}, nil
}

// As returns a client of the same cmem that calls as the caller whose
// token is token: a driver that acts for many users (a benchmark, a
// scenario) keeps one client and one connection pool.
func (c *Client) As(token string) *Client {
	cfg := c.cfg
	cfg.Token = token
	return &Client{cfg: cfg}
}

// BaseURL is the base URL the client calls.
func (c *Client) BaseURL() string { return c.cfg.BaseURL }

// Do sends body (nil for none) as JSON to path (with its query string, if
// any) and, when cmem answers 2xx, decodes the answer into out and returns
// its status, so a caller can tell 200 from 202 (a query still running).
// A *json.RawMessage out receives the answer's bytes as sent; a nil out
// discards them.
//
// Any other status is an *Error. A failure to reach cmem is net/http's
// error (a *url.Error), unwrapped, so a caller can say where it was going.
func (c *Client) Do(ctx context.Context, method, path string, body, out any) (int, error) {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return 0, err
		}
		rd = bytes.NewReader(b)
	}
	if c.cfg.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, c.cfg.Timeout)
		defer cancel()
	}
	req, err := http.NewRequestWithContext(ctx, method, strings.TrimSuffix(c.cfg.BaseURL, "/")+path, rd)
	if err != nil {
		return 0, err
	}
	req.Header.Set("Authorization", "Bearer "+c.cfg.Token)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := c.cfg.HTTPClient.Do(req)
	if err != nil {
		return 0, err
	}
	defer func() { _ = resp.Body.Close() }()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return resp.StatusCode, err
	}
	if resp.StatusCode/100 != 2 {
		return resp.StatusCode, NewError(resp.StatusCode, raw)
	}
	switch o := out.(type) {
	case nil:
		return resp.StatusCode, nil
	case *json.RawMessage:
		*o = raw
		return resp.StatusCode, nil
	}
	return resp.StatusCode, json.Unmarshal(raw, out)
}
