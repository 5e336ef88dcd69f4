package clustertest

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"
)

// EventStream is cmem's event stream.
const EventStream = "CMEM_EVENTS"

// WaitQueries polls every accepted query through the gateways, in turn,
// until each is answered, and returns how long that took. A query that
// fails, or is still unanswered after within, fails the test (within only
// keeps a stall from hanging CI; it is not a speed assertion).
func (l *Load) WaitQueries(t testing.TB, within time.Duration) time.Duration {
	t.Helper()
	start := time.Now()
	deadline := start.Add(within)
	for n, q := range l.Queries() {
		user, id, _ := strings.Cut(q, "/")
		for try := 0; ; try++ {
			st, b, err := Call("GET", l.gw(n+try).Base()+"/v1/queries/"+id+"?wait=5", l.users[user], nil)
			if err == nil && st == 200 {
				if b["status"] != "answered" {
					t.Fatalf("query %s: %v", id, b)
				}
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("query %s unanswered after %s: %d %v %v", id, within, st, b, err)
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
	return time.Since(start)
}

// Check asserts the invariants after a fault: every acknowledged command is
// in the log exactly once at the revision it was acknowledged with, every
// accepted query was answered exactly once, no read after an acknowledged
// revoke showed the revoked edge, and every gateway's projections digest
// the same at the log head.
func (l *Load) Check(t testing.TB) (events int) {
	t.Helper()
	if s := l.Stale(); len(s) > 0 {
		t.Errorf("%d stale reads after an acknowledged revoke, e.g. %s", len(s), s[0])
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	log, err := ReadLog(ctx, l.c.NATS.URLs(), EventStream)
	if err != nil {
		t.Fatal(err)
	}
	ids := map[string]int{}
	fragments := map[string]int{} // by subject
	answered, submitted := map[string]int{}, map[string]int{}
	for _, e := range log {
		ids[e.ID]++
		switch e.Type {
		case "cmem.fragment.written":
			fragments[e.Subject]++
		case "cmem.query.answered", "cmem.query.failed":
			answered[e.CorrelationID]++
		case "cmem.query.submitted":
			submitted[e.CorrelationID]++
		}
	}
	for id, n := range ids {
		if n > 1 {
			t.Errorf("event id %s stored %d times", id, n)
		}
	}
	for _, a := range l.AckedCommands() {
		if a.Revision == 0 || a.Revision > uint64(len(log)) {
			t.Errorf("acknowledged %s at revision %d: not in the log (%d events)", a.Type, a.Revision, len(log))
			continue
		}
		e := log[a.Revision-1]
		if e.Revision != a.Revision || e.Type != a.Type || e.Subject != a.Subject {
			t.Errorf("acknowledged %+v, the log holds %+v there", a, e)
		}
		if a.Type == "cmem.fragment.written" && fragments[a.Subject] != 1 {
			t.Errorf("fragment %s written %d times, want once", a.Subject, fragments[a.Subject])
		}
	}
	for _, q := range l.Queries() {
		_, id, _ := strings.Cut(q, "/")
		if answered[id] != 1 || submitted[id] != 1 {
			t.Errorf("query %s: submitted %d, answered %d times; want once each", id, submitted[id], answered[id])
		}
	}
	l.checkDigests(t, uint64(len(log)))
	return len(log)
}

func (l *Load) checkDigests(t testing.TB, rev uint64) {
	t.Helper()
	var first map[string]any
	start := time.Now()
	for _, g := range l.c.Gateways {
		// A gateway whose NATS node died may take a while to follow the log
		// again: wait for it (bounded only so that a stall fails CI), and
		// say how long it took.
		st, d, err := Call("GET", fmt.Sprintf("%s/v1/debug/digest?revision=%d", g.Base(), rev), AdminToken, nil)
		for (err != nil || st == 503) && time.Since(start) < 2*time.Minute {
			time.Sleep(250 * time.Millisecond)
			st, d, err = Call("GET", fmt.Sprintf("%s/v1/debug/digest?revision=%d", g.Base(), rev), AdminToken, nil)
		}
		if err != nil || st != 200 {
			t.Errorf("digest from %s: %d %v %v", g.Addr, st, d, err)
			return
		}
		if waited := time.Since(start); waited > 5*time.Second {
			t.Logf("gateway %s reached revision %d only %s after the load stopped", g.Addr, rev, waited.Round(time.Millisecond))
		}
		if first == nil {
			first = d
			continue
		}
		if d["access"] != first["access"] || d["fragments"] != first["fragments"] {
			t.Errorf("gateways disagree at revision %d: %v vs %v", rev, first, d)
		}
	}
}
