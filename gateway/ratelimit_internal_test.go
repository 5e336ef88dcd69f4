package gateway

import (
	"strings"
	"testing"
	"time"
)

// The limiter never announces a wait of 0: Retry-After and the message
// round up to whole seconds, at least 1, so a client that honours them
// does not come straight back to be refused again.
func TestRetryAfterIsNeverZero(t *testing.T) {
	for wait, want := range map[time.Duration]string{0: "1", time.Millisecond: "1", 499 * time.Millisecond: "1",
		time.Second: "1", 1001 * time.Millisecond: "2", 59500 * time.Millisecond: "60"} {
		e := errRateLimited{limit: "queries", wait: wait}
		if got := e.retryAfter(); got != want {
			t.Errorf("wait %s: Retry-After %s, want %s", wait, got, want)
		}
		if !strings.Contains(e.Error(), "retry after "+want+"s") {
			t.Errorf("wait %s: message %q", wait, e.Error())
		}
	}
	// A drained bucket's own wait, as the ingress and the HTTP routes get it.
	l := newLimiter()
	r := Rate{PerMinute: 600, Burst: 1}
	if ok, _ := l.allow("queries", "alice", r); !ok {
		t.Fatal("the first query was refused")
	}
	ok, wait := l.allow("queries", "alice", r)
	if ok || wait <= 0 {
		t.Fatalf("second query: allowed %v, wait %s", ok, wait)
	}
	if e := (errRateLimited{limit: "queries", wait: wait}); e.retryAfter() != "1" || strings.Contains(e.Error(), "after 0s") {
		t.Fatalf("a 100 ms wait announced as %s: %q", e.retryAfter(), e.Error())
	}
}
