package httpclient

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"time"
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
// Any other status is an *Error. A 429, or a 503 with Retry-After, is
// sent again up to Config.Retries times, each after the wait the answer
// names (at least) with back-off and jitter, while ctx lasts; the last
// refusal is returned. Config.Timeout bounds each attempt.
//
// A failure to reach cmem is net/http's error (a *url.Error), unwrapped,
// so a caller can say where it was going.
func (c *Client) Do(ctx context.Context, method, path string, body, out any) (int, error) {
	var payload []byte
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return 0, err
		}
		payload = b
	}
	for attempt := 0; ; attempt++ {
		status, raw, wait, err := c.once(ctx, method, path, body != nil, payload)
		if err != nil {
			return status, err
		}
		if status/100 == 2 {
			return status, decode(raw, out)
		}
		e := NewError(status, raw)
		if wait < 0 || attempt >= c.cfg.Retries || wait > c.cfg.MaxRetryWait {
			return status, e
		}
		if err := sleep(ctx, min(backoff(attempt, wait), c.cfg.MaxRetryWait)); err != nil {
			return status, e
		}
	}
}

// once sends one attempt and returns its status and body, and how long to
// wait before sending it again (negative: not to be retried).
func (c *Client) once(ctx context.Context, method, path string, hasBody bool, payload []byte) (int, []byte, time.Duration, error) {
	if c.cfg.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, c.cfg.Timeout)
		defer cancel()
	}
	var rd io.Reader
	if hasBody {
		rd = bytes.NewReader(payload)
	}
	req, err := http.NewRequestWithContext(ctx, method, strings.TrimSuffix(c.cfg.BaseURL, "/")+path, rd)
	if err != nil {
		return 0, nil, -1, err
	}
	req.Header.Set("Authorization", "Bearer "+c.cfg.Token)
	if hasBody {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := c.cfg.HTTPClient.Do(req)
	if err != nil {
		return 0, nil, -1, err
	}
	defer func() { _ = resp.Body.Close() }()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return resp.StatusCode, nil, -1, err
	}
	wait, ok := retryable(resp)
	if !ok {
		wait = -1
	}
	return resp.StatusCode, raw, wait, nil
}

// decode hands a 2xx answer's bytes to out (see Do).
func decode(raw []byte, out any) error {
	switch o := out.(type) {
	case nil:
		return nil
	case *json.RawMessage:
		*o = raw
		return nil
	}
	return json.Unmarshal(raw, out)
}
