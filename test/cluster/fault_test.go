package cluster_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/cmem/cmem/test/cluster/clustertest"
)

// archive is the HTTP resource every query calls: slow enough that queries
// are in flight when a fault strikes.
func archive(t *testing.T) string {
	var mu sync.Mutex
	n := 0
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		time.Sleep(200 * time.Millisecond)
		mu.Lock()
		n++
		mu.Unlock()
		_, _ = fmt.Fprintf(w, "Fact %d: the answer is in the archive.", n)
	}))
	t.Cleanup(s.Close)
	return s.URL
}

// workerArgs: every query calls the archive (coverage above 1), and a
// silent worker's stage moves on after 3 s.
var workerArgs = []string{"-stage-timeout", "10s", "-ack-wait", "3s", "-coverage", "2"}

// during is what was acknowledged while a fault was in effect, and the
// longest time no command was acknowledged, from the fault until the load
// stopped (the stall).
type during struct {
	commands, fragments int64
	stall               time.Duration
}

// longestGap samples the load's acknowledged commands until stop closes
// and sends the longest time between two acknowledgements (or from the
// call to the first, or from the last to stop).
func longestGap(l *clustertest.Load, stop <-chan struct{}) <-chan time.Duration {
	out := make(chan time.Duration, 1)
	last, n := time.Now(), l.Commands.Load()
	go func() {
		tick := time.NewTicker(20 * time.Millisecond)
		defer tick.Stop()
		var gap time.Duration
		for {
			select {
			case <-stop:
				out <- max(gap, time.Since(last))
				return
			case now := <-tick.C:
				if m := l.Commands.Load(); m != n {
					gap, last, n = max(gap, now.Sub(last)), now, m
				}
			}
		}
	}()
	return out
}

// under runs the load, strikes with fault mid-load, lets the load run on
// the restored cluster, stops it and checks every invariant. It returns
// what was acknowledged between the fault and its restore.
func under(t *testing.T, l *clustertest.Load, fault func() (restore func())) during {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel() // a fault that fails the test must not leave the load running
	done := make(chan struct{})
	go func() { l.Run(ctx); close(done) }()
	time.Sleep(2 * time.Second)
	c0, f0 := l.Commands.Load(), l.Fragments.Load()
	stopped := make(chan struct{})
	stall := longestGap(l, stopped)
	restore := fault()
	time.Sleep(3 * time.Second)
	d := during{commands: l.Commands.Load() - c0, fragments: l.Fragments.Load() - f0}
	restore()
	time.Sleep(2 * time.Second)
	close(stopped)
	d.stall = <-stall
	cancel()
	stopLoad(t, done)
	took := l.WaitQueries(t, 3*time.Minute)
	events := l.Check(t)
	t.Logf("%d commands acknowledged (%d in the 3 s after the fault, %d of them fragment writes; none for %s at the longest from the fault to the load's end), %d refused, %d reads after revokes, %d queries; all answered %s after the load stopped; %d events",
		l.Commands.Load(), d.commands, d.fragments, d.stall.Round(time.Millisecond), l.Refused.Load(), l.Reads.Load(), len(l.Queries()), took.Round(time.Millisecond), events)
	return d
}

// stopLoad waits for the load's clients to return after their context
// ended; each request is bounded by the client's timeout, so a longer wait
// is a hang, reported as one.
func stopLoad(t *testing.T, done <-chan struct{}) {
	t.Helper()
	select {
	case <-done:
	case <-time.After(3 * time.Minute):
		t.Fatal("the load's clients did not return within 3 minutes of being stopped")
	}
}

// Kill -9 of each kind of process, mid-load, then back: nothing
// acknowledged is lost or doubled, every accepted query is answered once,
// gateways agree, and no read after a revoke is stale.
func TestFaultsUnderLoad(t *testing.T) {
	c := clustertest.Start(t, clustertest.Options{Gateways: 2, Workers: 2, WorkerArgs: workerArgs})
	l := clustertest.Setup(t, c, archive(t))

	t.Run("stream leader NATS node", func(t *testing.T) {
		under(t, l, func() func() {
			n, err := c.NATS.StreamLeader(clustertest.EventStream)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("killing %s, leader of %s%s", n.Name, clustertest.EventStream, alsoLeads(c, n))
			n.Kill()
			return func() { c.NATS.Restart(t, n); c.NATS.WaitReady(t, 60*time.Second) }
		})
	})
	t.Run("non-leader NATS node", func(t *testing.T) {
		under(t, l, func() func() {
			lead, err := c.NATS.StreamLeader(clustertest.EventStream)
			if err != nil {
				t.Fatal(err)
			}
			var n *clustertest.NATSNode
			for _, m := range c.NATS.Nodes {
				if m != lead {
					n = m
					break
				}
			}
			t.Logf("killing %s, not the leader of %s%s", n.Name, clustertest.EventStream, alsoLeads(c, n))
			n.Kill()
			return func() { c.NATS.Restart(t, n); c.NATS.WaitReady(t, 60*time.Second) }
		})
	})
	t.Run("gateway", func(t *testing.T) {
		under(t, l, func() func() {
			g := c.Gateways[1]
			g.Kill()
			return func() { g.Start(t, 90*time.Second) }
		})
	})
	t.Run("worker", func(t *testing.T) {
		under(t, l, func() func() {
			w := c.Workers[0]
			w.Kill()
			return func() { w.Start(t, 90*time.Second) }
		})
	})
}

// alsoLeads names what else node n leads (the data-key bucket every
// fragment write needs): a kill of a "non-leader" can still stall writes.
func alsoLeads(c *clustertest.Cluster, n *clustertest.NATSNode) string {
	if k, err := c.NATS.StreamLeader("KV_cmem_keys"); err == nil && k == n {
		return "; it leads KV_cmem_keys (the data keys every fragment write needs)"
	}
	return ""
}

// Both workers are killed with queries in flight; once one worker is back,
// every accepted query finishes (the figure is how long that took).
func TestQueriesResumeWhenAWorkerReturns(t *testing.T) {
	c := clustertest.Start(t, clustertest.Options{Gateways: 2, Workers: 2, WorkerArgs: workerArgs})
	l := clustertest.Setup(t, c, archive(t))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel() // a fault that fails the test must not leave the load running
	done := make(chan struct{})
	go func() { l.Run(ctx); close(done) }()
	time.Sleep(3 * time.Second)
	for _, w := range c.Workers {
		w.Kill()
	}
	time.Sleep(2 * time.Second)
	cancel()
	stopLoad(t, done)
	back := time.Now()
	c.Workers[0].Start(t, 90*time.Second)
	l.WaitQueries(t, 3*time.Minute)
	t.Logf("%d accepted queries, all answered %s after a worker was started again (its start took %s)",
		len(l.Queries()), time.Since(back).Round(time.Millisecond), c.Workers[0].Started.Round(time.Millisecond))
	l.Check(t)
}
