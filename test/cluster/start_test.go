package cluster_test

import (
	"strings"
	"testing"
	"time"

	"github.com/cmem/cmem/test/cluster/clustertest"
)

// A gateway and a worker started against a cluster without a quorum (one
// of its three NATS nodes up) wait: they neither exit nor say they are
// ready, they log each retry, and /healthz answers 503 with the reason.
// Once the other nodes start, both become ready.
func TestStartWaitsForAQuorum(t *testing.T) {
	nats := clustertest.StartNATSNodes(t, 1)
	procs := []*clustertest.Proc{clustertest.NewProc(t, nats, "gateway"), clustertest.NewProc(t, nats, "worker")}
	launched := time.Now()
	for _, p := range procs {
		p.Launch(t)
	}
	for _, p := range procs {
		// Three retries logged, each with its reason.
		deadline := time.Now().Add(90 * time.Second)
		for strings.Count(p.Log(), "not ready: waiting") < 3 {
			if p.Exited() {
				t.Fatalf("cmem %s exited without a quorum:\n%s", p.Role, p.Log())
			}
			if time.Now().After(deadline) {
				t.Fatalf("cmem %s logged no three retries within 90 s:\n%s", p.Role, p.Log())
			}
			time.Sleep(100 * time.Millisecond)
		}
		// And it is still there, not ready, past the 5 s it used to give
		// up after.
		for time.Since(launched) < 8*time.Second {
			if p.Exited() || p.IsReady() {
				t.Fatalf("cmem %s without a quorum: ready %v, exited %v; want neither:\n%s", p.Role, p.IsReady(), p.Exited(), p.Log())
			}
			time.Sleep(100 * time.Millisecond)
		}
		st, b, err := clustertest.Poll(p.Base()+"/healthz", "")
		if err != nil || st != 503 || b["reason"] == nil || b["reason"] == "" {
			t.Errorf("cmem %s /healthz without a quorum: %d %v %v; want 503 with a reason", p.Role, st, b, err)
		}
		t.Logf("cmem %s without a quorum: /healthz %d %v", p.Role, st, b)
		if p.IsReady() || p.Exited() {
			t.Fatalf("cmem %s without a quorum: ready %v, exited %v; want neither:\n%s", p.Role, p.IsReady(), p.Exited(), p.Log())
		}
	}
	quorum := time.Now()
	for _, n := range nats.Nodes[1:] {
		nats.Restart(t, n)
	}
	for _, p := range procs {
		p.WaitReady(t, 2*time.Minute)
		st, b, err := clustertest.Poll(p.Base()+"/healthz", "")
		if err != nil || st != 200 {
			t.Errorf("cmem %s /healthz once ready: %d %v %v", p.Role, st, b, err)
		}
		t.Logf("cmem %s ready %s after the other NATS nodes were started", p.Role, time.Since(quorum).Round(time.Millisecond))
		if testing.Verbose() {
			t.Logf("its log:\n%s", tail(p.Log(), 12))
		}
	}
}
