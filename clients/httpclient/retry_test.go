package httpclient_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/cmem/cmem/clients/httpclient"
	"github.com/cmem/cmem/domain"
)

// script answers the i-th request with steps[i] (the last one repeats)
// and records when each request arrived and its body.
type script struct {
	mu     sync.Mutex
	steps  []step
	times  []time.Time
	bodies []string
}

type step struct {
	status     int
	retryAfter string
}

func (s *script) serve(t *testing.T, cfg httpclient.Config) *httpclient.Client {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b := make([]byte, 64)
		n, _ := r.Body.Read(b)
		s.mu.Lock()
		i := min(len(s.times), len(s.steps)-1)
		s.times = append(s.times, time.Now())
		s.bodies = append(s.bodies, string(b[:n]))
		st := s.steps[i]
		s.mu.Unlock()
		if st.retryAfter != "" {
			w.Header().Set("Retry-After", st.retryAfter)
		}
		w.WriteHeader(st.status)
		if st.status == 200 {
			_, _ = w.Write([]byte(`{"ok":true}`))
			return
		}
		_, _ = w.Write([]byte(`{"error":"slow down","code":"rate_limited"}`))
	}))
	t.Cleanup(srv.Close)
	cfg.BaseURL, cfg.Token = srv.URL, "tok"
	c, err := httpclient.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func (s *script) calls() int { s.mu.Lock(); defer s.mu.Unlock(); return len(s.times) }

// A 429 with Retry-After is sent again, no earlier than the answer asks,
// with the same body, and the caller sees only the final answer.
func TestRetriesHonourRetryAfter(t *testing.T) {
	s := &script{steps: []step{{429, "1"}, {200, ""}}}
	c := s.serve(t, httpclient.Config{})
	var out struct{ OK bool }
	status, err := c.Do(context.Background(), http.MethodPost, "/v1/queries", map[string]string{"text": "hi"}, &out)
	if err != nil || status != 200 || !out.OK {
		t.Fatalf("Do = %d %v %v", status, out, err)
	}
	if s.calls() != 2 {
		t.Fatalf("%d requests, want 2", s.calls())
	}
	if gap := s.times[1].Sub(s.times[0]); gap < time.Second {
		t.Fatalf("retried after %s, the answer asked for 1s", gap)
	}
	if s.bodies[0] != `{"text":"hi"}` || s.bodies[1] != s.bodies[0] {
		t.Fatalf("bodies %q", s.bodies)
	}
}

// Retries are bounded: after Config.Retries the refusal is returned as the
// *Error it is.
func TestRetriesAreBounded(t *testing.T) {
	s := &script{steps: []step{{429, "0"}}}
	c := s.serve(t, httpclient.Config{Retries: 2})
	status, err := c.Do(context.Background(), http.MethodGet, "/x", nil, nil)
	var he *httpclient.Error
	if status != 429 || !errors.As(err, &he) || !errors.Is(err, domain.ErrRateLimited) {
		t.Fatalf("Do = %d %v", status, err)
	}
	if s.calls() != 3 {
		t.Fatalf("%d requests, want 1 + 2 retries", s.calls())
	}
}

// What is not retried: a 503 without Retry-After (it may follow a write),
// a 400, a wait longer than MaxRetryWait, and anything with NoRetries.
func TestWhatIsNotRetried(t *testing.T) {
	for name, tc := range map[string]struct {
		step step
		cfg  httpclient.Config
	}{
		"503 without Retry-After": {step{503, ""}, httpclient.Config{}},
		"400":                     {step{400, "1"}, httpclient.Config{}},
		"too long a wait":         {step{429, "3600"}, httpclient.Config{}},
		"NoRetries":               {step{429, "0"}, httpclient.Config{Retries: httpclient.NoRetries}},
	} {
		t.Run(name, func(t *testing.T) {
			s := &script{steps: []step{tc.step, {200, ""}}}
			c := s.serve(t, tc.cfg)
			status, err := c.Do(context.Background(), http.MethodGet, "/x", nil, nil)
			if status != tc.step.status || err == nil || s.calls() != 1 {
				t.Fatalf("Do = %d %v after %d requests", status, err, s.calls())
			}
		})
	}
}

// A 503 with Retry-After is the server's word that the request may be
// repeated: it is, like a 429, and an HTTP-date Retry-After works too.
func TestUnavailableWithRetryAfterIsRetried(t *testing.T) {
	for _, after := range []string{"0", time.Now().Add(-time.Minute).UTC().Format(http.TimeFormat)} {
		s := &script{steps: []step{{503, after}, {200, ""}}}
		c := s.serve(t, httpclient.Config{})
		if status, err := c.Do(context.Background(), http.MethodGet, "/x", nil, nil); err != nil || status != 200 || s.calls() != 2 {
			t.Fatalf("Retry-After %q: Do = %d %v after %d requests", after, status, err, s.calls())
		}
	}
}

// A wait ends with the caller's context: the refusal comes back at once,
// not after the server's Retry-After.
func TestRetryWaitEndsWithTheContext(t *testing.T) {
	s := &script{steps: []step{{429, "25"}, {200, ""}}}
	c := s.serve(t, httpclient.Config{})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := c.Do(ctx, http.MethodGet, "/x", nil, nil)
		done <- err
	}()
	deadline := time.Now().Add(10 * time.Second)
	for s.calls() == 0 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, domain.ErrRateLimited) || s.calls() != 1 {
			t.Fatalf("Do = %v after %d requests", err, s.calls())
		}
	case <-time.After(20 * time.Second):
		t.Fatal("Do kept waiting after its context ended (Retry-After 25 s)")
	}
}
