package mcp

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"time"

	"github.com/cmem/cmem/clients/httpclient"
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
const DefaultURL = httpclient.DefaultURL

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

// api calls cmem as one user.
type api struct {
	cfg Config
	c   *httpclient.Client
	// seen is the newest revision this server's own writes were stored at:
	// its memory reads ask for projections at least that fresh, so an agent
	// reads what it has just written (read-your-writes).
	seen *atomic.Uint64
}

// newAPI returns the api of a valid cfg. Its calls have no timeout of
// their own: each is bounded by its MCP request's context, and ask by
// QueryWait, which may exceed the client's default.
func newAPI(cfg Config) (api, error) {
	c, err := httpclient.New(httpclient.Config{BaseURL: cfg.URL, Token: cfg.Token, Timeout: httpclient.NoTimeout, HTTPClient: cfg.HTTPClient})
	return api{cfg: cfg, c: c, seen: new(atomic.Uint64)}, err
}

// saw records rev as seen, keeping the newest.
func (a api) saw(rev uint64) {
	for cur := a.seen.Load(); rev > cur && !a.seen.CompareAndSwap(cur, rev); cur = a.seen.Load() {
	}
}

// call sends body as JSON and decodes a 2xx answer into out; it returns the
// status so callers can tell 200 from 202. A refusal reads "cmem refused:
// …" and unwraps to the *httpclient.Error.
func (a api) call(ctx context.Context, method, path string, body, out any) (int, error) {
	status, err := a.c.Do(ctx, method, path, body, out)
	var he *httpclient.Error
	var ue *url.Error
	switch {
	case errors.As(err, &he):
		return status, refusal{he}
	case errors.As(err, &ue):
		return status, fmt.Errorf("calling cmem at %s: %w", a.cfg.URL, err)
	}
	return status, err
}

// refusal is an answer of cmem other than success, as the MCP client is
// shown it: the API's message (else the body) with status and code.
type refusal struct{ err *httpclient.Error }

func (r refusal) Error() string {
	msg := r.err.Message
	if msg == "" {
		msg = strings.TrimSpace(string(r.err.Body))
	}
	return fmt.Sprintf("cmem refused: %s (%d %s)", msg, r.err.Status, r.err.Code)
}

func (r refusal) Unwrap() error { return r.err }
