package cluster_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/cmem/cmem/test/cluster/clustertest"
)

// One worker only, while NATS nodes die and come back, a gateway dies and
// comes back, and the worker itself is killed and restarted 50 operations
// later: once the load ends, every accepted query finishes (answered, or
// failed with a reason) within a deadline. Nothing may wait for a query
// timeout: the deadline is well below it.
func TestNoQueryStrandedWhenTheOnlyWorkerDiesAmidNATSFaults(t *testing.T) {
	c := clustertest.Start(t, clustertest.Options{Gateways: 2, Workers: 1, WorkerArgs: workerArgs})
	l := clustertest.Setup(t, c, archive(t))
	l.QueryGap = 150 * time.Millisecond
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel() // a fault that fails the test must not leave the load running
	done := make(chan struct{})
	go func() { l.Run(ctx); close(done) }()
	w, g := c.Workers[0], c.Gateways[1]

	l.WaitOps(t, 30, time.Minute)
	lead, err := c.NATS.StreamLeader(clustertest.EventStream)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("killing NATS %s, leader of %s", lead.Name, clustertest.EventStream)
	lead.Kill()
	l.WaitOps(t, 50, time.Minute)
	t.Log("killing the only worker")
	w.Kill()
	c.NATS.Restart(t, lead)
	t.Log("killing a gateway")
	g.Kill()
	l.WaitOps(t, 50, time.Minute)
	// The worker comes back while another NATS node is down and the
	// cluster elects new leaders.
	other, err := c.NATS.StreamLeader(clustertest.EventStream)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("killing NATS %s, leader of %s, and starting the worker again", other.Name, clustertest.EventStream)
	other.Kill()
	w.Start(t, 90*time.Second)
	g.Start(t, 90*time.Second)
	c.NATS.Restart(t, other)
	l.WaitOps(t, 50, time.Minute)
	// Enough queries for the check to mean something, however slowly a
	// loaded machine runs the load.
	deadline := time.Now().Add(time.Minute)
	for len(l.Queries()) < 20 && time.Now().Before(deadline) {
		l.WaitOps(t, 1, time.Minute)
	}
	cancel()
	stopLoad(t, done)
	c.NATS.WaitReady(t, time.Minute)

	const within = 60 * time.Second
	ended := time.Now()
	answered, failed, stuck := l.Unfinished(t, within)
	t.Logf("%d accepted queries: %d answered, %d failed with a reason, %d unfinished (all finished %s after the load ended, deadline %s)",
		len(l.Queries()), answered, failed, len(stuck), time.Since(ended).Round(time.Millisecond), within)
	t.Logf("the worker rebuilt its router %d times (consumer lost, subscription ended, or not startable)",
		strings.Count(w.Log(), "for=\"the worker consumers\""))
	if len(l.Queries()) < 20 {
		t.Errorf("only %d queries were accepted: the check is too weak", len(l.Queries()))
	}
	if len(stuck) > 0 {
		t.Errorf("%d of %d accepted queries had not finished %s after the load ended, e.g. %s\nworker log:\n%s",
			len(stuck), len(l.Queries()), within, stuck[0], tail(w.Log(), 60))
	}
}

// tail is the last n lines of s.
func tail(s string, n int) string {
	lines := 0
	for i := len(s) - 1; i >= 0; i-- {
		if s[i] == '\n' {
			if lines++; lines > n {
				return s[i+1:]
			}
		}
	}
	return s
}
