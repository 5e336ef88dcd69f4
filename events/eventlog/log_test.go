package eventlog_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/events/eventlog"
	"github.com/cmem/cmem/events/eventlog/logtest"
	"github.com/cmem/cmem/events/subjects"
)

func newEvent(t *testing.T, p events.Payload) events.Envelope {
	t.Helper()
	e, err := events.New(events.Meta{Source: "test", Actor: "admin"}, p)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func TestAppendAssignsRevisionsAndDedupesByID(t *testing.T) {
	ctx := context.Background()
	l := logtest.Open(t, "")
	e1 := newEvent(t, &events.AgentRegistered{ID: "a1", Description: "d"})
	e2 := newEvent(t, &events.AgentRegistered{ID: "a2", Description: "d"})
	r1, err := l.Append(ctx, e1)
	if err != nil {
		t.Fatal(err)
	}
	r2, err := l.Append(ctx, e2)
	if err != nil {
		t.Fatal(err)
	}
	if r1 != 1 || r2 != 2 {
		t.Fatalf("revisions %d, %d; want 1, 2", r1, r2)
	}
	again, err := l.Append(ctx, e1) // a retry of the same event
	if err != nil {
		t.Fatal(err)
	}
	if again != r1 {
		t.Fatalf("retry stored at %d, want the original revision %d", again, r1)
	}
	if head, _ := l.Head(ctx, ""); head != 2 {
		t.Fatalf("head = %d after a deduplicated retry, want 2", head)
	}
}

func TestAppendRejectsInvalidEvents(t *testing.T) {
	l := logtest.Open(t, "")
	e := newEvent(t, &events.UserAgentGranted{User: "u", Agent: "a"})
	e.Data = []byte(`{"user":"u"}`)
	if _, err := l.Append(context.Background(), e); !errors.Is(err, events.ErrInvalid) {
		t.Fatalf("got %v, want ErrInvalid", err)
	}
}

func TestExpectNewIsAtomic(t *testing.T) {
	ctx := context.Background()
	l := logtest.Open(t, "")
	var wg sync.WaitGroup
	results := make([]error, 8)
	for i := range results {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, results[i] = l.Append(ctx, newEvent(t, &events.AgentRegistered{ID: "same", Description: "d"}), eventlog.ExpectNew())
		}()
	}
	wg.Wait()
	won := 0
	for _, err := range results {
		switch {
		case err == nil:
			won++
		case !errors.Is(err, eventlog.ErrSubjectTaken):
			t.Fatalf("unexpected error: %v", err)
		}
	}
	if won != 1 {
		t.Fatalf("%d concurrent registrations of one id succeeded, want exactly 1", won)
	}
}

func TestHeadByPrefixAndSubject(t *testing.T) {
	ctx := context.Background()
	l := logtest.Open(t, "")
	mustAppend := func(p events.Payload) uint64 {
		r, err := l.Append(ctx, newEvent(t, p))
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	grant := mustAppend(&events.UserAgentGranted{User: "u", Agent: "a"})
	mustAppend(&events.AgentRegistered{ID: "a", Description: "d"})
	for filter, want := range map[string]uint64{
		"": 2, "grants/": grant, "agents/a": 2, "agents/b": 0, "users/": 0,
		events.UserAgentSubject("u", "a"): grant,
	} {
		got, err := l.Head(ctx, filter)
		if err != nil || got != want {
			t.Errorf("Head(%q) = %d, %v; want %d", filter, got, err, want)
		}
	}
}

func TestReopenKeepsEventsAndFollowResumes(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	dir := t.TempDir()
	l, err := logtest.OpenDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 5 {
		if _, err := l.Append(ctx, newEvent(t, &events.AgentRegistered{ID: "a" + string(rune('0'+i)), Description: "d"})); err != nil {
			t.Fatal(err)
		}
	}
	l.Close()
	l = logtest.Open(t, dir)
	var got []uint64
	fctx, fcancel := context.WithCancel(ctx)
	err = l.Follow(fctx, 3, func(m eventlog.Msg) error {
		got = append(got, m.Revision)
		if len(got) == 3 {
			fcancel()
		}
		return nil
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Follow ended with %v", err)
	}
	if len(got) != 3 || got[0] != 3 || got[2] != 5 {
		t.Fatalf("followed revisions %v, want [3 4 5]", got)
	}
}

func TestDeadLetterIsIdempotent(t *testing.T) {
	ctx := context.Background()
	l := logtest.Open(t, "")
	m := eventlog.Msg{Revision: 7, Subject: "cmem.events.x", Data: []byte("junk")}
	for range 3 {
		if err := l.DeadLetter(ctx, "access", m, "not JSON"); err != nil {
			t.Fatal(err)
		}
	}
	dl, err := l.DeadLetters(ctx, "access")
	if err != nil {
		t.Fatal(err)
	}
	if len(dl) != 1 {
		t.Fatalf("%d dead letters, want 1", len(dl))
	}
	if dl[0].Header.Get(eventlog.ReasonHeader) != "not JSON" || string(dl[0].Data) != "junk" || dl[0].Subject != subjects.DeadLetter("access", 7) {
		t.Fatalf("dead letter %+v", dl[0])
	}
}

func TestAuthAndCredentialFreeURLs(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	const internal = "internal-token-0123456789"
	srv, err := eventlog.Open(ctx, eventlog.Config{DataDir: t.TempDir(), Port: -1, InternalToken: internal,
		Authorizer: fixedAuth{"user-token": {Name: "u", Publish: []string{"cmem.query.u"}}}}, logtest.Logger())
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	if !strings.Contains(srv.ConnectURL(), internal) || strings.Contains(srv.ClientURL(), internal) {
		t.Fatalf("ConnectURL must carry the token, ClientURL must not: %s / %s", srv.ConnectURL(), srv.ClientURL())
	}
	peer, err := eventlog.Open(ctx, eventlog.Config{URL: srv.ConnectURL()}, logtest.Logger())
	if err != nil {
		t.Fatalf("a second process with the internal token: %v", err)
	}
	defer peer.Close()
	if strings.Contains(peer.ClientURL(), internal) {
		t.Fatalf("ClientURL leaks the token: %s", peer.ClientURL())
	}
	if _, err := nats.Connect(srv.ClientURL()); err == nil {
		t.Fatal("an anonymous client connected to an authenticated embedded server")
	}
	if _, err := nats.Connect(srv.ClientURL(), nats.Token("wrong")); err == nil {
		t.Fatal("a client with a wrong token connected")
	}
	nc, err := nats.Connect(srv.ClientURL(), nats.Token("user-token"))
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	errs := make(chan error, 1)
	nc.SetErrorHandler(func(_ *nats.Conn, _ *nats.Subscription, err error) { errs <- err })
	if err := nc.Publish("cmem.query.v", []byte("x")); err == nil {
		_ = nc.Flush()
	}
	select {
	case err := <-errs:
		if !strings.Contains(strings.ToLower(err.Error()), "permissions violation") {
			t.Fatalf("unexpected error: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("publishing on another user's subject was not refused")
	}
}

type fixedAuth map[string]eventlog.Grant

func (f fixedAuth) Authorize(token string) (eventlog.Grant, bool) {
	g, ok := f[token]
	return g, ok
}
