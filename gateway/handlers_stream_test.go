package gateway_test

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/cmem/cmem/gateway"
	"github.com/cmem/cmem/node"
	"github.com/cmem/cmem/node/nodetest"
	"github.com/cmem/cmem/test/console/consoletest"
)

// streamUntil reads token's event stream from the start until the event
// marker() returns true for, and returns every event's raw JSON.
func streamUntil(t *testing.T, base, token string, marker func(e streamed) bool) []string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute) // a bound against a hang, not an assertion
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, base+"/v1/events/stream?after=0", nil)
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("stream: %d %v", resp.StatusCode, resp.Header)
	}
	var out []string
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		data, ok := strings.CutPrefix(sc.Text(), "data: ")
		if !ok {
			continue
		}
		out = append(out, data)
		var e streamed
		if err := json.Unmarshal([]byte(data), &e); err != nil {
			t.Errorf("event %q: %v", data, err)
			return out
		}
		if marker(e) {
			return out
		}
	}
	t.Errorf("stream ended before the marker: %v (%d events)", sc.Err(), len(out))
	return out
}

type streamed struct {
	Revision          uint64
	Type, User, Agent string
}

// TestEventStreamNeverSendsAnotherUsersEvents: Alice's stream holds her
// own events, live and from the backlog, and nothing about Bob — his
// grants, agent, resource, fragments or queries — nor any content; the
// admin's holds everything's metadata.
func TestEventStreamNeverSendsAnotherUsersEvents(t *testing.T) {
	_, c := nodetest.StartClient(t, nil)
	w := consoletest.Seed(t, c)
	// The marker: Alice gets critic back after the seeded revoke.
	marker := func(e streamed) bool {
		return e.Type == "cmem.user_agent.granted" && e.User == "alice" && e.Agent == "critic" && e.Revision > w.RevokeRevision
	}
	streams := map[string]chan []string{w.Alice: make(chan []string, 1), admin: make(chan []string, 1)}
	for tok, ch := range streams {
		go func() { ch <- streamUntil(t, c.Base, tok, marker) }()
	}
	// Live events after the streams opened: Bob asks, then Alice gets
	// critic back (the marker, an event about Alice).
	bobLive := c.Must(http.StatusOK, "POST", "/v1/queries", w.Bob, map[string]any{"text": "ledger salaries again"}).Body["id"].(string)
	c.Must(http.StatusOK, "PUT", "/v1/grants/user-agent/alice/critic", admin, nil)
	alice, all := <-streams[w.Alice], <-streams[admin]
	if t.Failed() {
		t.FailNow()
	}
	joined := strings.Join(alice, "\n")
	for _, leak := range []string{`"bob"`, consoletest.BobAgent, consoletest.BobResource, w.BobQuery, bobLive, w.BobPrivate, w.BobShared,
		consoletest.BobPrivateValue, consoletest.AlicePrivateValue, consoletest.BobQueryText, `"actor"`} {
		if strings.Contains(joined, leak) {
			t.Fatalf("alice's stream holds %q:\n%s", leak, joined)
		}
	}
	for _, want := range []string{w.AliceQuery, w.AlicePrivate, w.AliceShared, `"cmem.user_agent.revoked"`, `"cmem.query.answered"`} {
		if !strings.Contains(joined, want) {
			t.Fatalf("alice's stream lacks %q:\n%s", want, joined)
		}
	}
	var last streamed
	_ = json.Unmarshal([]byte(alice[len(alice)-1]), &last)
	if !marker(last) {
		t.Fatalf("alice's last event %s", alice[len(alice)-1])
	}
	every := strings.Join(all, "\n")
	for _, want := range []string{w.BobQuery, bobLive, w.BobPrivate, consoletest.BobAgent, `"actor":"admin"`} {
		if !strings.Contains(every, want) {
			t.Fatalf("admin's stream lacks %q", want)
		}
	}
	for _, content := range []string{consoletest.BobPrivateValue, consoletest.AlicePrivateValue, consoletest.BobQueryText} {
		if strings.Contains(every, content) {
			t.Fatalf("admin's stream carries content %q", content)
		}
	}
	c.Must(http.StatusUnauthorized, "GET", "/v1/events/stream", "", nil)
	wantError(t, c.Must(http.StatusBadRequest, "GET", "/v1/events/stream?after=x", w.Alice, nil), "invalid", "after")
}

// TestEventStreamOutlivesServerTimeouts: the server's read and write
// timeouts bound ordinary requests, not a stream: an event written after
// both have passed still arrives.
func TestEventStreamOutlivesServerTimeouts(t *testing.T) {
	n := nodetest.Start(t, func(cfg *node.Config) {
		cfg.Gateway = gateway.Config{QueryWait: 100 * time.Millisecond, ReadTimeout: 300 * time.Millisecond, WriteTimeout: 400 * time.Millisecond}
	})
	c := nodetest.NewClient(t, n)
	got := make(chan []string, 1)
	go func() {
		got <- streamUntil(t, c.Base, admin, func(e streamed) bool { return e.Type == "cmem.user.registered" && e.User == "late" })
	}()
	c.User("early", "user")
	time.Sleep(time.Second) // past both timeouts: what is checked is that the stream is still open, not how fast
	c.User("late", "user")
	if evs := <-got; len(evs) < 2 {
		t.Fatalf("stream: %v", evs)
	}
}
