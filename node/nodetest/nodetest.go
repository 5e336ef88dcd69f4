// Package nodetest starts real cmem nodes for end-to-end tests (embedded
// NATS on a free port, HTTP on a free port, data in a temp dir) and gives a
// small JSON client for their API.
package nodetest

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/events/eventlog"
	"github.com/cmem/cmem/events/eventlog/logtest"
	"github.com/cmem/cmem/node"
)

// AdminToken is the admin token of nodes started here.
const AdminToken = "test-admin-token-0123456789"

// Start runs a node until the test ends; mutate may change its config.
func Start(t testing.TB, mutate func(*node.Config)) *node.Node {
	t.Helper()
	cfg := node.Config{
		DataDir:    t.TempDir(),
		HTTPAddr:   "127.0.0.1:0",
		NATSPort:   -1,
		AdminToken: AdminToken,
		ReadWait:   5 * time.Second,
	}
	if mutate != nil {
		mutate(&cfg)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	n, err := node.Start(ctx, cfg, logtest.Logger())
	if err != nil {
		t.Fatalf("start node: %v", err)
	}
	t.Cleanup(n.Close)
	return n
}

// Client calls one node's API.
type Client struct {
	T    testing.TB
	Base string
}

// NewClient returns a client for n.
func NewClient(t testing.TB, n *node.Node) *Client { return &Client{T: t, Base: "http://" + n.Addr()} }

// StartClient is Start and NewClient together, the opening of most API
// tests: the node runs until the test ends.
func StartClient(t testing.TB, mutate func(*node.Config)) (*node.Node, *Client) {
	t.Helper()
	n := Start(t, mutate)
	return n, NewClient(t, n)
}

// Response is a decoded answer.
type Response struct {
	Status int
	Body   map[string]any
	Raw    []byte
}

// Do sends body (marshalled unless it is a string) with token and decodes
// the answer.
func (c *Client) Do(method, path, token string, body any) Response {
	c.T.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = bytes.NewBufferString(b)
	default:
		raw, err := json.Marshal(b)
		if err != nil {
			c.T.Fatal(err)
		}
		rd = bytes.NewReader(raw)
	}
	req, err := http.NewRequest(method, c.Base+path, rd)
	if err != nil {
		c.T.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		c.T.Fatalf("%s %s: %v", method, path, err)
	}
	defer func() { _ = resp.Body.Close() }()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		c.T.Fatal(err)
	}
	out := Response{Status: resp.StatusCode, Raw: raw}
	_ = json.Unmarshal(raw, &out.Body)
	return out
}

// Must is Do that fails the test unless the status is want.
func (c *Client) Must(want int, method, path, token string, body any) Response {
	c.T.Helper()
	r := c.Do(method, path, token, body)
	if r.Status != want {
		c.T.Fatalf("%s %s: status %d, want %d: %s", method, path, r.Status, want, r.Raw)
	}
	return r
}

// Revision returns the "revision" field of an answer.
func (r Response) Revision() uint64 {
	f, _ := r.Body["revision"].(float64)
	return uint64(f)
}

// User registers a user as admin and returns its token.
func (c *Client) User(id, role string) string {
	c.T.Helper()
	r := c.Must(http.StatusCreated, "POST", "/v1/users", AdminToken, map[string]string{"id": id, "role": role})
	return r.Body["token"].(string)
}

// Events returns every event on n's log up to the head, parsed, optionally
// only those of the given types.
func Events(t testing.TB, n *node.Node, types ...string) []events.Record {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	head, err := n.Log.Head(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	v, err := events.DefaultValidator()
	if err != nil {
		t.Fatal(err)
	}
	var out []events.Record
	if head == 0 {
		return out
	}
	fctx, stop := context.WithCancel(ctx)
	defer stop()
	_ = n.Log.Follow(fctx, 1, func(m eventlog.Msg) error {
		if e, err := v.Parse(m.Data); err == nil && (len(types) == 0 || slices.Contains(types, e.Type)) {
			out = append(out, events.Record{Envelope: e, Revision: m.Revision})
		}
		if m.Revision >= head {
			stop()
		}
		return nil
	})
	return out
}
