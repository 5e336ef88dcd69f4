package httpclient

import (
	"cmp"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"time"
)

// DefaultURL is where cmem serve listens unless told otherwise.
const DefaultURL = "http://127.0.0.1:8080"

// DefaultTimeout bounds one call when Config.Timeout is zero. It is the
// gateway's default write timeout: a default-configured cmem answers
// within it even when a query waits its full 60 seconds server-side, so a
// call that takes longer is a server that hangs.
const DefaultTimeout = 90 * time.Second

// NoTimeout as Config.Timeout leaves the bound of a call to its context,
// for callers whose context already carries their own (the MCP server's
// requests do).
const NoTimeout time.Duration = -1

// Config says which cmem to call and as whom.
type Config struct {
	// BaseURL is the API's base URL (CMEM_URL), e.g. DefaultURL; a path
	// given to Do is appended to it.
	BaseURL string
	// Token is the caller's bearer token: a user's (from registering it)
	// or the admin's.
	Token string
	// Timeout bounds each attempt of a call, on top of its context: 0 is
	// DefaultTimeout, NoTimeout (any negative) none.
	Timeout time.Duration
	// HTTPClient sends the requests; nil is http.DefaultClient.
	HTTPClient *http.Client
	// Retries is how many times a call refused with 429 (or 503 with
	// Retry-After) is sent again, after the wait the answer names and an
	// exponential back-off with jitter: 0 is DefaultRetries, NoRetries
	// (any negative) none.
	Retries int
	// MaxRetryWait caps one wait between attempts: 0 is
	// DefaultMaxRetryWait. An answer asking for longer is returned as is.
	MaxRetryWait time.Duration
}

// WithDefaults fills c's zero fields: DefaultURL, DefaultTimeout,
// http.DefaultClient, DefaultRetries and DefaultMaxRetryWait.
func (c Config) WithDefaults() Config {
	c.BaseURL = cmp.Or(c.BaseURL, DefaultURL)
	c.Timeout = cmp.Or(c.Timeout, DefaultTimeout)
	c.HTTPClient = cmp.Or(c.HTTPClient, http.DefaultClient)
	c.Retries = cmp.Or(c.Retries, DefaultRetries)
	c.MaxRetryWait = cmp.Or(c.MaxRetryWait, DefaultMaxRetryWait)
	return c
}

// Validate reports every problem with c.
func (c Config) Validate() error {
	var errs []error
	if u, err := url.Parse(c.BaseURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		errs = append(errs, fmt.Errorf("httpclient: BaseURL must be an http(s) URL, got %q", c.BaseURL))
	}
	if c.Token == "" {
		errs = append(errs, errors.New("httpclient: Token is required (every call of the API is made as someone)"))
	}
	return errors.Join(errs...)
}
