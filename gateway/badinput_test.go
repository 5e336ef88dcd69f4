package gateway_test

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/cmem/cmem/gateway"
	"github.com/cmem/cmem/node"
	"github.com/cmem/cmem/node/nodetest"
)

// writer registers alice with agent planner, granted, and returns her token.
func writer(t *testing.T, c *nodetest.Client) string {
	t.Helper()
	alice := c.User("alice", "user")
	c.Must(http.StatusCreated, "POST", "/v1/agents", admin, map[string]string{"id": "planner", "description": "d"})
	c.Must(http.StatusOK, "PUT", "/v1/grants/user-agent/alice/planner", admin, nil)
	return alice
}

// One case per bad input: each answers its status with a message that says
// what is wrong, and none answers 500.
func TestBadInput(t *testing.T) {
	_, c := nodetest.StartClient(t, nil)
	alice := writer(t, c)
	frag := func(extra map[string]any) map[string]any {
		b := map[string]any{"agent": "planner", "key": "k", "value": "v", "tier": "private"}
		for k, v := range extra {
			b[k] = v
		}
		return b
	}
	first := c.Must(http.StatusCreated, "POST", "/v1/fragments", alice, frag(nil))
	firstID, _ := first.Body["id"].(string)
	docs := make([]map[string]string, 0, 300)
	for i := range 300 {
		docs = append(docs, map[string]string{"id": fmt.Sprintf("d%d", i), "text": strings.Repeat("<", 8000)})
	}
	cases := []struct {
		name, method, path, token string
		body                      any
		status                    int
		code, mentions            string
	}{
		{"inline knowledge base past the event limit", "POST", "/v1/resources", admin,
			map[string]any{"id": "big", "kind": "knowledge_base", "description": "d", "documents": docs}, 413, "too_large", "the limit is"},
		{"repeated ids in derived_from", "POST", "/v1/fragments", alice,
			frag(map[string]any{"derived_from": []string{firstID, firstID}}), 400, "invalid", "derived_from"},
		{"duplicate key", "POST", "/v1/agents", admin, `{"id":"x","description":"d","id":"y"}`, 400, "invalid", "duplicate key"},
		{"case-colliding keys", "POST", "/v1/fragments", alice, `{"agent":"planner","Agent":"x","key":"k","value":"v"}`, 400, "invalid", "differ only in case"},
		{"nested duplicate key", "POST", "/v1/policies", admin, `{"kind":"x","config":{"a":1,"a":2}}`, 400, "invalid", "duplicate key"},
		{"at before 1678", "GET", "/v1/access/alice?at=1500-01-01T00:00:00Z", alice, nil, 400, "invalid", "must lie between"},
		{"at after 2262", "GET", "/v1/access/alice?at=2300-01-01T00:00:00Z", alice, nil, 400, "invalid", "must lie between"},
		{"audit from before 1678", "GET", "/v1/audit/violations?from=1500-01-01T00:00:00Z", admin, nil, 400, "invalid", "must lie between"},
		{"audit to after 2262", "GET", "/v1/audit/metrics?bin=1h&to=9999-01-01T00:00:00Z", admin, nil, 400, "invalid", "must lie between"},
		{"wait=Inf", "GET", "/v1/queries/q?wait=Inf", alice, nil, 400, "invalid", "finite"},
		{"wait=NaN", "GET", "/v1/queries/q?wait=NaN", alice, nil, 400, "invalid", "finite"},
		{"wait=-1", "GET", "/v1/queries/q?wait=-1", alice, nil, 400, "invalid", "non-negative"},
		{"empty body", "POST", "/v1/agents", admin, "", 400, "invalid", "empty body"},
		{"two JSON values", "POST", "/v1/agents", admin, `{"id":"a","description":"d"} {}`, 400, "invalid", "more than one"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			wantError(t, c.Must(tc.status, tc.method, tc.path, tc.token, tc.body), tc.code, tc.mentions)
		})
	}
	// A huge but finite wait is capped, not refused and not "at once".
	c.Must(http.StatusNotFound, "GET", "/v1/queries/nope?wait=1e300", alice, nil)
}

// The Bearer scheme is case-insensitive (RFC 7235).
func TestBearerSchemeIsCaseInsensitive(t *testing.T) {
	_, c := nodetest.StartClient(t, nil)
	for _, scheme := range []string{"Bearer", "bearer", "BEARER", "bEaReR"} {
		req, _ := http.NewRequest(http.MethodGet, c.Base+"/v1/access/admin", nil)
		req.Header.Set("Authorization", scheme+" "+admin)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		_ = res.Body.Close()
		if res.StatusCode == http.StatusUnauthorized {
			t.Errorf("scheme %q: 401", scheme)
		}
	}
	req, _ := http.NewRequest(http.MethodGet, c.Base+"/v1/access/admin", nil)
	req.Header.Set("Authorization", "Basic "+admin)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	_ = res.Body.Close()
	if res.StatusCode != http.StatusUnauthorized {
		t.Errorf("Basic scheme: %d, want 401", res.StatusCode)
	}
}

// A body larger than the configured limit is a 413 naming the limit.
func TestBodyOverLimit(t *testing.T) {
	_, c := nodetest.StartClient(t, func(c *node.Config) { c.Gateway.MaxBodyBytes = 1024 })
	wantError(t, c.Must(http.StatusRequestEntityTooLarge, "POST", "/v1/agents", admin,
		map[string]string{"id": "a", "description": strings.Repeat("d", 2000)}), "too_large", "1024 bytes")
}

// A body sent a byte at a time cannot hold a connection past ReadTimeout:
// the server ends the request long before the body is complete.
func TestSlowBodyIsCutOff(t *testing.T) {
	n := nodetest.Start(t, func(c *node.Config) { c.Gateway.ReadTimeout = time.Second })
	conn, err := net.Dial("tcp", n.Addr())
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = conn.Close() }()
	const size = 200
	_, _ = fmt.Fprintf(conn, "POST /v1/agents HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n", admin, size)
	done := make(chan string, 1)
	go func() {
		r := bufio.NewReader(conn)
		line, _ := r.ReadString('\n')
		_, _ = io.Copy(io.Discard, r)
		done <- line
	}()
	for i := range size {
		select {
		case line := <-done:
			if strings.Contains(line, " 500 ") {
				t.Fatalf("slow body answered %q", line)
			}
			return // cut off after %d of 200 bytes
		case <-time.After(100 * time.Millisecond):
		}
		if _, err := conn.Write([]byte{' '}); err != nil {
			return // the server closed the connection
		}
		_ = i
	}
	t.Fatalf("the server read a %d-byte body sent over %s with ReadTimeout 1s", size, 100*time.Millisecond*size)
}

// Over its rate limit a caller gets 429 with Retry-After; other callers
// are not affected.
func TestRateLimit(t *testing.T) {
	n := nodetest.Start(t, func(c *node.Config) {
		c.Gateway.Limits = gateway.RateLimits{Registrations: gateway.Rate{PerMinute: 1, Burst: 2}}
	})
	c := nodetest.NewClient(t, n)
	c.Must(http.StatusCreated, "POST", "/v1/agents", admin, map[string]string{"id": "a1", "description": "d"})
	c.Must(http.StatusCreated, "POST", "/v1/agents", admin, map[string]string{"id": "a2", "description": "d"})
	req, _ := http.NewRequest(http.MethodPost, c.Base+"/v1/agents", strings.NewReader(`{"id":"a3","description":"d"}`))
	req.Header.Set("Authorization", "Bearer "+admin)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	_ = res.Body.Close()
	if res.StatusCode != http.StatusTooManyRequests || res.Header.Get("Retry-After") == "" || !strings.Contains(string(body), "rate_limited") {
		t.Fatalf("third registration: %d Retry-After=%q %s", res.StatusCode, res.Header.Get("Retry-After"), body)
	}
}

func TestParseRateLimits(t *testing.T) {
	l, err := gateway.ParseRateLimits("queries=60:10,registrations=0:0")
	if err != nil || l.Queries != (gateway.Rate{PerMinute: 60, Burst: 10}) || l.Registrations != (gateway.Rate{}) ||
		l.Fragments != gateway.DefaultRateLimits().Fragments {
		t.Fatalf("%+v %v", l, err)
	}
	if l, err := gateway.ParseRateLimits("off"); err != nil || !l.Off {
		t.Fatalf("off: %+v %v", l, err)
	}
	for _, bad := range []string{"queries=x:1", "reads=1:1", "queries=10:0", "queries=-1:5"} {
		if _, err := gateway.ParseRateLimits(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}
