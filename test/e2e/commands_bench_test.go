package e2e_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/events/eventlog"
	"github.com/cmem/cmem/internal/benchfig"
	"github.com/cmem/cmem/node"
	"github.com/cmem/cmem/node/nodetest"
)

// commandClients are the concurrencies the commands figures are taken at.
var commandClients = []int{32, 64, 128}

// syncModes are the fsync settings the figures are taken at: cmem's
// default (every write synced before its ack) and nats-server's own
// default (a sync every 2 minutes).
var syncModes = []struct {
	name     string
	interval time.Duration
}{{"always", 0}, {"2m", 2 * time.Minute}}

func forSyncModes(b *testing.B, run func(b *testing.B, sync string, mutate func(*node.Config))) {
	for _, m := range syncModes {
		b.Run("sync="+m.name, func(b *testing.B) {
			run(b, m.name, func(c *node.Config) { c.NATSSync = m.interval })
		})
	}
}

// BenchmarkCommands drives grant/revoke commands over HTTP against one
// embedded-NATS node from 32, 64 and 128 clients (each toggles its own
// user's grant: PUT then DELETE), and in the same run the raw baseline:
// as many publishers doing JetStream synchronous publishes of an event of
// the same size onto a stream configured like cmem's (rawStream), sharing
// one connection as the node's use cases do. It reports commands/s, the
// raw publishes/s, their ratio and the leader round trips per command.
func BenchmarkCommands(b *testing.B) {
	forSyncModes(b, benchCommands)
}

func benchCommands(b *testing.B, sync string, mutate func(*node.Config)) {
	n, c := nodetest.StartClient(b, mutate)
	c.Must(http.StatusCreated, "POST", "/v1/agents", admin, map[string]string{"id": "bench", "description": "bench"})
	for i := range slices.Max(commandClients) {
		c.Must(http.StatusCreated, "POST", "/v1/users", admin, map[string]string{"id": fmt.Sprintf("c%d", i), "role": "user"})
	}
	raw := openRawStream(b, n)
	const d = 3 * time.Second
	for b.Loop() {
		for _, clients := range commandClients {
			a0, h0 := eventlog.LeaderRequests()
			c0 := benchfig.ProcessCPU()
			cmds, p99, count := driveCommands(b, n, clients, d)
			c1 := benchfig.ProcessCPU()
			a1, h1 := eventlog.LeaderRequests()
			pubs, published := raw.syncPublishes(b, clients, d)
			c2 := benchfig.ProcessCPU()
			perCmd := float64(a1+h1-a0-h0) / float64(count)
			cpuCmd, cpuPub := perOp(c1-c0, count), perOp(c2-c1, published)
			b.ReportMetric(cpuCmd, fmt.Sprintf("cpu-µs/cmd-%d", clients))
			b.ReportMetric(cpuPub, fmt.Sprintf("cpu-µs/raw-pub-%d", clients))
			b.Logf("%d clients, sync %s: CPU per command %.0f µs, per raw publish %.0f µs, ratio %.2f", clients, sync, cpuCmd, cpuPub, cpuPub/cpuCmd)
			b.ReportMetric(cmds, fmt.Sprintf("cmds/s-%d", clients))
			b.ReportMetric(pubs, fmt.Sprintf("raw-pubs/s-%d", clients))
			b.ReportMetric(p99, fmt.Sprintf("p99-ms-%d", clients))
			b.ReportMetric(perCmd, fmt.Sprintf("leader-requests/cmd-%d", clients))
			benchfig.Record(b, benchfig.Figure{
				Name: fmt.Sprintf("commands over HTTP (grant/revoke), %d clients, sync %s", clients, sync), Value: cmds, Unit: "commands/s",
				Baseline: fmt.Sprintf("raw JetStream sync publish, %d publishers", clients), BaselineValue: pubs, Goal: "≥ 0.5×",
			})
			benchfig.Record(b, benchfig.Figure{
				Name:  fmt.Sprintf("leader round trips per command, %d clients, sync %s", clients, sync),
				Value: perCmd, Unit: "requests", LowerIsBetter: true, Goal: "≤ 1",
				Baseline: "one acknowledged publish", BaselineValue: 1,
			})
		}
	}
	b.ReportMetric(0, "ns/op")
}

// runFor runs workers that call round (with their index and round number)
// until d has passed, and returns the units done per second of the time
// it took, and the units done. round returns the units it did; an error
// stops its worker and fails b.
func runFor(b *testing.B, workers int, d time.Duration, round func(i, k int) (int, error)) (float64, int64) {
	var mu sync.Mutex
	var done int64
	var wg sync.WaitGroup
	start := time.Now()
	for i := range workers {
		wg.Go(func() {
			var mine int64
			for k := 0; time.Since(start) < d; k++ {
				n, err := round(i, k)
				if err != nil {
					b.Error(err)
					break
				}
				mine += int64(n)
			}
			mu.Lock()
			done += mine
			mu.Unlock()
		})
	}
	wg.Wait()
	return float64(done) / time.Since(start).Seconds(), done
}

// driveCommands runs clients that each toggle their own user's grant for d
// and returns commands/s, the p99 latency in ms and the commands done.
func driveCommands(b *testing.B, n *node.Node, clients int, d time.Duration) (float64, float64, int64) {
	hc := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: clients, MaxConnsPerHost: clients}}
	defer hc.CloseIdleConnections()
	var mu sync.Mutex
	var lat []time.Duration
	rate, count := runFor(b, clients, d, func(i, k int) (int, error) {
		method := map[bool]string{true: http.MethodPut, false: http.MethodDelete}[k%2 == 0]
		req, _ := http.NewRequest(method, fmt.Sprintf("http://%s/v1/grants/user-agent/c%d/bench", n.Addr(), i), nil)
		req.Header.Set("Authorization", "Bearer "+admin)
		t0 := time.Now()
		if err := call(hc, req); err != nil {
			return 0, err
		}
		mu.Lock()
		lat = append(lat, time.Since(t0))
		mu.Unlock()
		return 1, nil
	})
	slices.Sort(lat)
	var p99 float64
	if len(lat) > 0 {
		p99 = float64(lat[len(lat)*99/100].Microseconds()) / 1000
	}
	return rate, p99, count
}

// perOp is CPU time d spread over n operations, in µs.
func perOp(d time.Duration, n int64) float64 {
	if n == 0 {
		return 0
	}
	return float64(d.Microseconds()) / float64(n)
}

// call sends req and wants a 200 answer, read to the end (or the
// connection would not be reused).
func call(hc *http.Client, req *http.Request) error {
	resp, err := hc.Do(req)
	if err != nil {
		return fmt.Errorf("%s %s: %w", req.Method, req.URL.Path, err)
	}
	defer func() { _ = resp.Body.Close() }()
	body, err := io.ReadAll(resp.Body)
	if err == nil && resp.StatusCode != http.StatusOK {
		err = fmt.Errorf("%s %s: status %d: %s", req.Method, req.URL.Path, resp.StatusCode, body)
	}
	return err
}

// BenchmarkBatch posts batches of 1000 grant (then revoke) items over HTTP
// from 1 and 4 clients against one embedded-NATS node, and in the same run
// the raw baseline: as many publishers each pipelining 1000 JetStream async
// publishes of events of the same size onto a stream configured like
// cmem's, then waiting for all their acks. It reports events/s both ways
// and their ratio, and, to place the gap, what a raw atomic batch of 1000
// does and what the node's log does with the same events appended directly
// (eventlog.AppendAtomic: the endpoint less HTTP and the use cases).
func BenchmarkBatch(b *testing.B) {
	forSyncModes(b, benchBatch)
}

func benchBatch(b *testing.B, sync string, mutate func(*node.Config)) {
	n, c := nodetest.StartClient(b, mutate)
	const size = 1000
	reg := []map[string]any{{"op": "register_agent", "id": "bench", "description": "bench"}}
	for i := range size - 1 {
		reg = append(reg, map[string]any{"op": "register_user", "id": fmt.Sprintf("b%d", i)})
	}
	r := c.Must(http.StatusOK, "POST", "/v1/batch", admin, map[string]any{"items": reg})
	// The projection holds them before the clock starts (else the first
	// batch asks the leader whether each user exists).
	c.Must(http.StatusOK, "GET", fmt.Sprintf("/v1/access/b0?min_revision=%d", r.Revision()), admin, nil)
	bodies := [2][]byte{batchBody(size, "grant"), batchBody(size, "revoke")}
	raw := openRawStream(b, n)
	hc := &http.Client{}
	defer hc.CloseIdleConnections()
	const d = 5 * time.Second
	for b.Loop() {
		for _, clients := range []int{1, 4} {
			a0, h0 := eventlog.LeaderRequests()
			c0 := benchfig.ProcessCPU()
			evs, stored := runFor(b, clients, d, func(_, k int) (int, error) {
				req, _ := http.NewRequest(http.MethodPost, "http://"+n.Addr()+"/v1/batch", bytes.NewReader(bodies[k%2]))
				req.Header.Set("Authorization", "Bearer "+admin)
				return size, call(hc, req)
			})
			c1 := benchfig.ProcessCPU()
			a1, h1 := eventlog.LeaderRequests()
			async, published := raw.asyncPublishes(b, clients, size, d)
			c2 := benchfig.ProcessCPU()
			cpuEv, cpuPub := perOp(c1-c0, stored), perOp(c2-c1, published)
			b.ReportMetric(cpuEv, fmt.Sprintf("cpu-µs/event-%d", clients))
			b.ReportMetric(cpuPub, fmt.Sprintf("cpu-µs/raw-async-%d", clients))
			b.Logf("%d clients, sync %s: CPU per batched event %.1f µs, per raw async publish %.1f µs, ratio %.2f", clients, sync, cpuEv, cpuPub, cpuPub/cpuEv)
			atomicRate := raw.atomicPublishes(b, clients, size, d)
			logRate, _ := runFor(b, clients, d, func(int, int) (int, error) { return size, appendGrants(n, size) })
			b.ReportMetric(evs, fmt.Sprintf("events/s-%d", clients))
			b.ReportMetric(async, fmt.Sprintf("raw-async/s-%d", clients))
			b.ReportMetric(atomicRate, fmt.Sprintf("raw-atomic/s-%d", clients))
			b.ReportMetric(logRate, fmt.Sprintf("log-atomic/s-%d", clients))
			b.ReportMetric(float64(a1+h1-a0-h0)*size/float64(stored), fmt.Sprintf("leader-requests/batch-%d", clients))
			benchfig.Record(b, benchfig.Figure{
				Name: fmt.Sprintf("batch endpoint (1000 grants/revokes a request), %d clients, sync %s", clients, sync), Value: evs, Unit: "events/s",
				Baseline: fmt.Sprintf("raw JetStream async publish, %d publishers × 1000 in flight", clients), BaselineValue: async, Goal: "≥ 0.5×",
			})
		}
	}
	b.ReportMetric(0, "ns/op")
}

// batchBody is a /v1/batch body of size grant or revoke items, user b_i to
// agent bench.
func batchBody(size int, op string) []byte {
	items := make([]map[string]any, size)
	for i := range items {
		items[i] = map[string]any{"op": op, "edge": "user-agent", "from": fmt.Sprintf("b%d", i%(size-1)), "to": "bench"}
	}
	raw, err := json.Marshal(map[string]any{"items": items})
	if err != nil {
		panic(err)
	}
	return raw
}

// appendGrants appends size grant events straight to the node's log as
// one atomic batch.
func appendGrants(n *node.Node, size int) error {
	es := make([]eventlog.Entry, size)
	for j := range es {
		e, err := events.New(events.Meta{Source: "bench", Actor: "admin"}, &events.UserAgentGranted{User: fmt.Sprintf("b%d", j%(size-1)), Agent: "bench"})
		if err != nil {
			return err
		}
		es[j] = eventlog.Entry{Event: e}
	}
	_, err := n.Log.AppendAtomic(context.Background(), es)
	return err
}
