package clustertest

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// Unfinished waits, up to within, until every accepted query has finished
// (answered, or failed with a reason) and returns the ones that had not by
// then, each with what its last poll said; a failure without a reason
// counts as unfinished. Polls ask the gateways in turn to wait a little
// (a long poll), so the wait is on the queries' state, not on a clock.
func (l *Load) Unfinished(t testing.TB, within time.Duration) (answered, failed int, stuck []string) {
	t.Helper()
	deadline := time.Now().Add(within)
	pending := map[string]string{}
	for _, q := range l.Queries() {
		pending[q] = "not polled"
	}
	for try := 0; len(pending) > 0 && time.Now().Before(deadline); try++ {
		for q := range pending {
			user, id, _ := strings.Cut(q, "/")
			st, b, err := Poll(l.gw(try).Base()+"/v1/queries/"+id+"?wait=1", l.users[user])
			switch {
			case err != nil:
				pending[q] = err.Error()
			case st == 200 && b["status"] == "answered":
				answered++
				delete(pending, q)
			case st == 200 && b["status"] == "failed" && reason(b) != "":
				failed++
				delete(pending, q)
			default:
				pending[q] = fmt.Sprintf("%d %v", st, b)
			}
			if time.Now().After(deadline) {
				break
			}
		}
	}
	for q, last := range pending {
		stuck = append(stuck, q+": "+last)
	}
	return answered, failed, stuck
}

// reason is a failed query's reason (the answer's "error").
func reason(b map[string]any) string {
	s, _ := b["error"].(string)
	return s
}

// WaitOps waits until the load has made n more operations (acknowledged
// or refused commands) than at the call, or fails t after within.
func (l *Load) WaitOps(t testing.TB, n int64, within time.Duration) {
	t.Helper()
	ops := func() int64 { return l.Commands.Load() + l.Refused.Load() }
	target := ops() + n
	deadline := time.Now().Add(within)
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for ops() < target {
		if time.Now().After(deadline) {
			t.Fatalf("the load made %d of %d operations within %s", n-(target-ops()), n, within)
		}
		<-tick.C
	}
}
