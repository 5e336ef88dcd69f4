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
			st, b, err := Poll(l.gw(n+try).Base()+"/v1/queries/"+id+"?wait=5", l.users[user])
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
// revoke showed the revoked edge, and every process's projections (gateways
// and workers) digest the same at the log head.
func (l *Load) Check(t testing.TB) (events int) {
	t.Helper()
	if s := l.Stale(); len(s) > 0 {
		t.Errorf("%d stale reads after an acknowledged revoke, e.g. %s", len(s), s[0])
	}
	if l.Shown.Load() == 0 {
		t.Error("no memory view after a grant showed what the grant admits: the stale-read check after a revoke could not have failed")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	log, err := ReadLog(ctx, l.c.NATS.URLs(), EventStream)
	if err != nil {
		t.Fatal(err)
	}
	l.mu.Lock()
	l.log = log
	l.mu.Unlock()
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
	// An event of the load's own commands that no acknowledgement accounts
	// for can only come from a request that failed in a fault (the append
	// may have landed before the answer was lost); more of them than
	// failed requests is a command written twice. (Fragments a pipeline
	// stage writes while answering a query name the stage's event as
	// their cause: they are not the load's commands.)
	acked := map[uint64]bool{}
	for _, a := range l.AckedCommands() {
		acked[a.Revision] = true
	}
	var unacked []Event
	for _, e := range log {
		own := strings.HasPrefix(e.Subject, "grants/user-agent/r") && strings.HasSuffix(e.Subject, "/scribe") ||
			(e.Type == "cmem.fragment.written" && strings.HasPrefix(e.Subject, "fragments/w") && e.CausationID == "")
		if own && !acked[e.Revision] {
			unacked = append(unacked, e)
		}
	}
	if refused := l.Refused.Load(); int64(len(unacked)) > refused {
		t.Errorf("%d events of the load's grants, revokes and fragment writes were never acknowledged, but only %d requests failed: a command was written twice; e.g. %+v",
			len(unacked), refused, unacked[0])
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
	var firstAddr string
	start := time.Now()
	for _, p := range l.c.Procs() {
		if !p.Running() { // killed and left down by the test
			continue
		}
		// A process whose NATS node died, or whose vector view waits for
		// its store, may take a while to reach rev: wait for it (bounded
		// only so that a stall fails CI), and say how long it took.
		url := fmt.Sprintf("%s/v1/debug/digest?revision=%d", p.Base(), rev)
		st, d, err := Poll(url, AdminToken)
		for (err != nil || st == 503) && time.Since(start) < 2*time.Minute {
			time.Sleep(250 * time.Millisecond)
			st, d, err = Poll(url, AdminToken)
		}
		if err != nil || st != 200 {
			t.Errorf("digest of %s %s at revision %d (waited %s): %d %v %v", p.Role, p.Addr, rev,
				time.Since(start).Round(time.Millisecond), st, d, err)
			return
		}
		if waited := time.Since(start); waited > 5*time.Second {
			t.Logf("%s %s reached revision %d only %s after the load stopped", p.Role, p.Addr, rev, waited.Round(time.Millisecond))
		}
		if first == nil {
			first, firstAddr = d, p.Addr
			continue
		}
		for _, k := range []string{"access", "fragments", "edges", "fragment_count"} {
			if d[k] != first[k] {
				t.Errorf("%s %s and %s disagree on %s at revision %d: %v vs %v", p.Role, p.Addr, firstAddr, k, rev, d, first)
				break
			}
		}
	}
}
