package cluster_test

import (
	"fmt"
	"github.com/cmem/cmem/internal/benchfig"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/cmem/cmem/test/cluster/clustertest"
)

// scaleEvents is the log size BenchmarkStartAtScale fills:
// CMEM_SCALE_EVENTS, default 100k (make soak runs 1M).
func scaleEvents(b *testing.B) int {
	if s := os.Getenv("CMEM_SCALE_EVENTS"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil {
			b.Fatalf("CMEM_SCALE_EVENTS: %v", err)
		}
		return n
	}
	return 100_000
}

// BenchmarkStartAtScale fills the R3 log with a mixed history, then starts
// a gateway on it: how long until it is ready (every projection rebuilt
// from the log) and its resident memory then, keeping 10k finished
// queries in memory (the default) and keeping all. The baseline is the bulk
// append rate into the same cluster, measured in the same run.
func BenchmarkStartAtScale(b *testing.B) {
	n := scaleEvents(b)
	c := clustertest.Start(b, clustertest.Options{})
	begin := time.Now()
	clustertest.Fill(b, c, n)
	fill := time.Since(begin)
	for b.Loop() {
		// The default keeps 10k finished queries in memory; -1 keeps all.
		for _, v := range []struct{ name, retain string }{{"retain10k", "0"}, {"retainAll", "-1"}} {
			g := c.AddGateway(b, "-query-retain", v.retain)
			b.ReportMetric(g.Started.Seconds(), "start-s-"+v.name)
			b.ReportMetric(float64(g.RSS())/(1<<20), "rss-MB-"+v.name)
			b.ReportMetric(float64(n)/g.Started.Seconds(), "rebuild-events/s-"+v.name)
			g.Kill()
		}
		b.ReportMetric(float64(n)/fill.Seconds(), "append-events/s")
	}
	b.ReportMetric(float64(n), "events")
	b.ReportMetric(0, "ns/op")
}

// BenchmarkCommandsThroughGateways drives grant/revoke commands from 16
// clients for a fixed time through one gateway, then through two: the
// ratio is what a second gateway adds on this machine.
func BenchmarkCommandsThroughGateways(b *testing.B) {
	c := clustertest.Start(b, clustertest.Options{Gateways: 2})
	const clients = 16
	base := c.Gateways[0].Base()
	for _, path := range []string{"/v1/agents"} {
		if st, body, err := clustertest.Call("POST", base+path, clustertest.AdminToken, map[string]string{"id": "bench", "description": "bench"}); err != nil || st != 201 {
			b.Fatalf("%d %v %v", st, body, err)
		}
	}
	for i := range clients {
		if st, body, err := clustertest.Call("POST", base+"/v1/users", clustertest.AdminToken, map[string]string{"id": fmt.Sprintf("c%d", i)}); err != nil || st != 201 {
			b.Fatalf("%d %v %v", st, body, err)
		}
	}
	for b.Loop() {
		one := drive(b, c.Gateways[:1], clients, 5*time.Second)
		two := drive(b, c.Gateways, clients, 5*time.Second)
		b.ReportMetric(one, "cmds/s-1gw")
		b.ReportMetric(two, "cmds/s-2gw")
		b.ReportMetric(two/one, "2gw/1gw-ratio")
		benchfig.Record(b, benchfig.Figure{Name: "commands over HTTP through two gateways, R3 cluster, 16 clients", Value: two, Unit: "commands/s",
			Baseline: "the same through one gateway", BaselineValue: one})
	}
	b.ReportMetric(0, "ns/op")
}

// drive runs clients that each toggle their own user's grant through the
// gateways (client i uses gateway i mod len) for d, and returns commands/s.
func drive(b *testing.B, gws []*clustertest.Proc, clients int, d time.Duration) float64 {
	var done atomic.Int64
	var wg sync.WaitGroup
	stop := time.Now().Add(d)
	for i := range clients {
		wg.Go(func() {
			url := gws[i%len(gws)].Base() + fmt.Sprintf("/v1/grants/user-agent/c%d/bench", i)
			for n := 0; time.Now().Before(stop); n++ {
				method := "PUT"
				if n%2 == 1 {
					method = "DELETE"
				}
				if st, body, err := clustertest.Call(method, url, clustertest.AdminToken, nil); err != nil || st != 200 {
					b.Errorf("%s %s: %d %v %v", method, url, st, body, err)
					return
				}
				done.Add(1)
			}
		})
	}
	wg.Wait()
	return float64(done.Load()) / d.Seconds()
}
