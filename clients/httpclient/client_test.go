package httpclient_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/cmem/cmem/clients/httpclient"
	"github.com/cmem/cmem/domain"
)

// answering is a stand-in for cmem that answers every request with status
// and body, and records the last request.
func answering(t *testing.T, status int, body string, last **http.Request) *httpclient.Client {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if last != nil {
			*last = r
		}
		w.WriteHeader(status)
		_, _ = w.Write([]byte(body))
	}))
	t.Cleanup(srv.Close)
	c, err := httpclient.New(httpclient.Config{BaseURL: srv.URL + "/", Token: "tok"})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestDoSendsTokenAndDecodes(t *testing.T) {
	var req *http.Request
	c := answering(t, http.StatusAccepted, `{"id":"q1"}`, &req)
	var ans map[string]string
	status, err := c.Do(context.Background(), http.MethodPost, "/v1/queries", map[string]string{"text": "hi"}, &ans)
	if err != nil || status != http.StatusAccepted || ans["id"] != "q1" {
		t.Fatalf("Do = %d %v %v", status, ans, err)
	}
	if req.URL.Path != "/v1/queries" || req.Header.Get("Authorization") != "Bearer tok" || req.Header.Get("Content-Type") != "application/json" {
		t.Fatalf("request %s %v", req.URL, req.Header)
	}
	var raw json.RawMessage
	if _, err := c.Do(context.Background(), http.MethodGet, "/x", nil, &raw); err != nil || string(raw) != `{"id":"q1"}` {
		t.Fatalf("raw %q %v", raw, err)
	}
}

func TestErrorsMatchTheirSentinels(t *testing.T) {
	for _, tc := range []struct {
		status int
		body   string
		is     []error
		text   string
	}{
		{403, `{"error":"alice may not use critic","code":"forbidden"}`, []error{domain.ErrForbidden, domain.ErrForbidden}, "alice may not use critic (403 forbidden)"},
		{403, `{"error":"blocked","code":"refused_by_policy"}`, []error{domain.ErrPolicyRefused, domain.ErrForbidden}, "blocked (403 refused_by_policy)"},
		{404, `{"error":"no agent x","code":"not_found"}`, []error{domain.ErrNotFound}, "no agent x (404 not_found)"},
		{409, `{"error":"exists","code":"conflict"}`, []error{domain.ErrConflict}, "exists (409 conflict)"},
		{503, "<html>bad gateway</html>", []error{domain.ErrUnavailable}, "HTTP 503: <html>bad gateway</html>"},
		{500, `{"error":"internal error","code":"internal"}`, nil, "internal error (500 internal)"},
	} {
		_, err := answering(t, tc.status, tc.body, nil).Do(context.Background(), http.MethodGet, "/", nil, nil)
		var he *httpclient.Error
		if !errors.As(err, &he) || he.Status != tc.status || err.Error() != tc.text {
			t.Errorf("%d %s: %v, want %q", tc.status, tc.body, err, tc.text)
		}
		for _, s := range tc.is {
			if !errors.Is(err, s) {
				t.Errorf("%d %s: not %v", tc.status, tc.body, s)
			}
		}
		if len(tc.is) < 2 && errors.Is(err, domain.ErrPolicyRefused) {
			t.Errorf("%d %s: is ErrPolicyRefused", tc.status, tc.body)
		}
	}
}

func TestTimeoutBoundsACall(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() }))
	defer srv.Close()
	c, err := httpclient.New(httpclient.Config{BaseURL: srv.URL, Token: "tok", Timeout: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Do(context.Background(), http.MethodGet, "/", nil, nil); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Do = %v, want a deadline", err)
	}
}

func TestConfigValidate(t *testing.T) {
	err := httpclient.Config{BaseURL: "ftp://x"}.Validate()
	for _, want := range []string{"BaseURL", "Token"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Validate() = %v, want it to mention %s", err, want)
		}
	}
	if got := (httpclient.Config{}).WithDefaults(); got.BaseURL != httpclient.DefaultURL || got.Timeout != httpclient.DefaultTimeout || got.HTTPClient == nil {
		t.Errorf("WithDefaults() = %+v", got)
	}
}

// TestAsCallsAsAnotherCaller: As sends the other token; the client it was
// made from keeps its own.
func TestAsCallsAsAnotherCaller(t *testing.T) {
	var last *http.Request
	c := answering(t, 200, `{}`, &last)
	if _, err := c.As("bob-token").Do(t.Context(), "GET", "/v1/me", nil, nil); err != nil {
		t.Fatal(err)
	}
	if got := last.Header.Get("Authorization"); got != "Bearer bob-token" {
		t.Errorf("As sent %q", got)
	}
	if _, err := c.Do(t.Context(), "GET", "/v1/me", nil, nil); err != nil {
		t.Fatal(err)
	}
	if got := last.Header.Get("Authorization"); got != "Bearer tok" {
		t.Errorf("the original client now sends %q", got)
	}
}
