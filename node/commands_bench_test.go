package node_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/cmem/cmem/eventlog"
	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/internal/benchfig"
	"github.com/cmem/cmem/node"
	"github.com/cmem/cmem/node/nodetest"
)

// commandClients are the concurrencies the commands figures are taken at.
var commandClients = []int{32, 64, 128}

// BenchmarkCommands drives grant/revoke commands over HTTP against one
// embedded-NATS node from 32, 64 and 128 clients (each toggles its own
// user's grant: PUT then DELETE), and in the same run the raw baseline:
// as many publishers doing JetStream synchronous publishes of an event of
// the same size onto a stream configured like cmem's (file storage, one
// replica, the node's fsync setting — every write synced before its ack —,
// a 10-minute duplicate window, every message with a Nats-Msg-Id and an
// expected stream), sharing one connection as the node's use cases do.
// It reports commands/s, the raw publishes/s, their ratio and the leader
// round trips per command.
func BenchmarkCommands(b *testing.B) {
	forSyncModes(b, benchCommands)
}

// syncModes are the fsync settings the commands figures are taken at:
// cmem's default (every write synced before its ack) and nats-server's
// own default (a sync every 2 minutes).
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

func benchCommands(b *testing.B, sync string, mutate func(*node.Config)) {
	n := nodetest.Start(b, mutate)
	c := nodetest.NewClient(b, n)
	c.Must(http.StatusCreated, "POST", "/v1/agents", admin, map[string]string{"id": "bench", "description": "bench"})
	maxClients := slices.Max(commandClients)
	for i := range maxClients {
		c.Must(http.StatusCreated, "POST", "/v1/users", admin, map[string]string{"id": fmt.Sprintf("c%d", i), "role": "user"})
	}
	raw := openRawStream(b, n)
	const d = 3 * time.Second
	for b.Loop() {
		for _, clients := range commandClients {
			a0, h0 := eventlog.LeaderRequests()
			cmds, p99, count := driveCommands(b, n, clients, d)
			a1, h1 := eventlog.LeaderRequests()
			pubs := raw.syncPublishes(b, clients, d)
			perCmd := float64(a1+h1-a0-h0) / float64(count)
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

// driveCommands runs clients that each toggle their own user's grant for d
// and returns commands/s, the p99 latency in ms and the commands done.
func driveCommands(b *testing.B, n *node.Node, clients int, d time.Duration) (float64, float64, int64) {
	b.Helper()
	hc := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: clients, MaxConnsPerHost: clients}}
	defer hc.CloseIdleConnections()
	base := "http://" + n.Addr()
	var done atomic.Int64
	var mu sync.Mutex
	var lat []time.Duration
	var wg sync.WaitGroup
	stop := time.Now().Add(d)
	for i := range clients {
		wg.Go(func() {
			url := base + fmt.Sprintf("/v1/grants/user-agent/c%d/bench", i)
			var mine []time.Duration
			for k := 0; time.Now().Before(stop); k++ {
				method := http.MethodPut
				if k%2 == 1 {
					method = http.MethodDelete
				}
				req, _ := http.NewRequest(method, url, nil)
				req.Header.Set("Authorization", "Bearer "+admin)
				t0 := time.Now()
				resp, err := hc.Do(req)
				if err != nil {
					b.Errorf("%s %s: %v", method, url, err)
					return
				}
				// Read to the end, or the connection is not reused.
				_, _ = io.Copy(io.Discard, resp.Body)
				_ = resp.Body.Close()
				if resp.StatusCode != http.StatusOK {
					b.Errorf("%s %s: status %d", method, url, resp.StatusCode)
					return
				}
				mine = append(mine, time.Since(t0))
				done.Add(1)
			}
			mu.Lock()
			lat = append(lat, mine...)
			mu.Unlock()
		})
	}
	wg.Wait()
	elapsed := time.Since(stop.Add(-d))
	slices.Sort(lat)
	var p99 float64
	if len(lat) > 0 {
		p99 = float64(lat[len(lat)*99/100].Microseconds()) / 1000
	}
	return float64(done.Load()) / elapsed.Seconds(), p99, done.Load()
}

// rawStream is a stream on the node's server configured like the event
// log, for the baselines.
type rawStream struct {
	js   jetstream.JetStream
	name string
	data []byte
}

func openRawStream(b testing.TB, n *node.Node) *rawStream {
	b.Helper()
	nc, err := nats.Connect(n.Log.ConnectURL())
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(nc.Close)
	js, err := jetstream.New(nc)
	if err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := js.CreateStream(ctx, jetstream.StreamConfig{
		Name: "BENCH_RAW", Subjects: []string{"bench.raw.>"}, Storage: jetstream.FileStorage,
		Retention: jetstream.LimitsPolicy, Replicas: 1, Duplicates: 10 * time.Minute,
		DenyDelete: true, DenyPurge: true, AllowAtomicPublish: true,
	}); err != nil {
		b.Fatal(err)
	}
	// The size of a stored grant event (envelope, ids, time, correlation id).
	data := make([]byte, 420)
	for i := range data {
		data[i] = 'x'
	}
	return &rawStream{js: js, name: "BENCH_RAW", data: data}
}

// syncPublishes runs publishers that each publish and wait for the ack,
// one at a time, for d, and returns publishes/s.
func (r *rawStream) syncPublishes(b *testing.B, publishers int, d time.Duration) float64 {
	b.Helper()
	var done atomic.Int64
	var wg sync.WaitGroup
	stop := time.Now().Add(d)
	for i := range publishers {
		wg.Go(func() {
			ctx := context.Background()
			subj := fmt.Sprintf("bench.raw.grants.user-agent.c%d.bench", i)
			for k := 0; time.Now().Before(stop); k++ {
				msg := &nats.Msg{Subject: subj, Data: r.data, Header: nats.Header{}}
				msg.Header.Set("Cmem-Type", "user_agent_granted")
				if _, err := r.js.PublishMsg(ctx, msg, jetstream.WithMsgID(fmt.Sprintf("s%d-%d-%d", publishers, i, k)), jetstream.WithExpectStream(r.name)); err != nil {
					b.Errorf("raw publish: %v", err)
					return
				}
				done.Add(1)
			}
		})
	}
	wg.Wait()
	return float64(done.Load()) / time.Since(stop.Add(-d)).Seconds()
}

// BenchmarkBatch posts batches of 1000 grant (then revoke) items over HTTP
// from 1 and 4 clients against one embedded-NATS node, and in the same run
// the raw baseline: as many publishers each pipelining 1000 JetStream async
// publishes of events of the same size (with Nats-Msg-Id and an expected
// stream) onto a stream configured like cmem's, then waiting for all their
// acks. It reports events/s both ways and their ratio, and what a raw
// atomic batch of 1000 does.
func BenchmarkBatch(b *testing.B) {
	forSyncModes(b, benchBatch)
}

func benchBatch(b *testing.B, sync string, mutate func(*node.Config)) {
	n := nodetest.Start(b, mutate)
	c := nodetest.NewClient(b, n)
	const size = 1000
	reg := []map[string]any{{"op": "register_agent", "id": "bench", "description": "bench"}}
	for i := range size - 1 {
		reg = append(reg, map[string]any{"op": "register_user", "id": fmt.Sprintf("b%d", i)})
	}
	r := c.Must(http.StatusOK, "POST", "/v1/batch", admin, map[string]any{"items": reg})
	// The projection holds them before the clock starts (else the first
	// batch asks the leader whether each user exists).
	c.Must(http.StatusOK, "GET", fmt.Sprintf("/v1/access/b0?min_revision=%d", r.Revision()), admin, nil)
	grants, revokes := batchBody(size, "grant"), batchBody(size, "revoke")
	raw := openRawStream(b, n)
	const d = 5 * time.Second
	for b.Loop() {
		for _, clients := range []int{1, 4} {
			a0, h0 := eventlog.LeaderRequests()
			evs, batches := driveBatches(b, n, clients, d, grants, revokes)
			a1, h1 := eventlog.LeaderRequests()
			async := raw.asyncPublishes(b, clients, size, d)
			atomicRate := raw.atomicPublishes(b, clients, size, d)
			logRate := logAtomic(b, n, clients, size, d)
			b.ReportMetric(logRate, fmt.Sprintf("log-atomic/s-%d", clients))
			b.ReportMetric(evs, fmt.Sprintf("events/s-%d", clients))
			b.ReportMetric(async, fmt.Sprintf("raw-async/s-%d", clients))
			b.ReportMetric(atomicRate, fmt.Sprintf("raw-atomic/s-%d", clients))
			b.ReportMetric(float64(a1+h1-a0-h0)/batches, fmt.Sprintf("leader-requests/batch-%d", clients))
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

// driveBatches posts grant and revoke batches from clients for d and
// returns events/s and how many batches were stored.
func driveBatches(b *testing.B, n *node.Node, clients int, d time.Duration, grants, revokes []byte) (float64, float64) {
	b.Helper()
	hc := &http.Client{}
	defer hc.CloseIdleConnections()
	url := "http://" + n.Addr() + "/v1/batch"
	var events, batches atomic.Int64
	var wg sync.WaitGroup
	stop := time.Now().Add(d)
	for range clients {
		wg.Go(func() {
			for k := 0; time.Now().Before(stop); k++ {
				body := grants
				if k%2 == 1 {
					body = revokes
				}
				req, _ := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
				req.Header.Set("Authorization", "Bearer "+admin)
				resp, err := hc.Do(req)
				if err != nil {
					b.Errorf("batch: %v", err)
					return
				}
				var ans struct {
					Items []json.RawMessage `json:"items"`
				}
				err = json.NewDecoder(resp.Body).Decode(&ans)
				_, _ = io.Copy(io.Discard, resp.Body)
				_ = resp.Body.Close()
				if resp.StatusCode != http.StatusOK || err != nil {
					b.Errorf("batch: status %d, %v", resp.StatusCode, err)
					return
				}
				events.Add(int64(len(ans.Items)))
				batches.Add(1)
			}
		})
	}
	wg.Wait()
	return float64(events.Load()) / time.Since(stop.Add(-d)).Seconds(), float64(batches.Load())
}

// asyncPublishes runs publishers that each publish size messages without
// waiting and then wait for every ack, over and over for d, and returns
// publishes/s.
func (r *rawStream) asyncPublishes(b *testing.B, publishers, size int, d time.Duration) float64 {
	b.Helper()
	var done atomic.Int64
	var wg sync.WaitGroup
	stop := time.Now().Add(d)
	for i := range publishers {
		wg.Go(func() {
			for k := 0; time.Now().Before(stop); k++ {
				futures := make([]jetstream.PubAckFuture, size)
				for j := range futures {
					msg := &nats.Msg{Subject: fmt.Sprintf("bench.raw.grants.user-agent.b%d.bench", j), Data: r.data, Header: nats.Header{}}
					msg.Header.Set("Cmem-Type", "user_agent_granted")
					f, err := r.js.PublishMsgAsync(msg, jetstream.WithMsgID(fmt.Sprintf("a%d-%d-%d-%d", publishers, i, k, j)), jetstream.WithExpectStream(r.name))
					if err != nil {
						b.Errorf("raw async publish: %v", err)
						return
					}
					futures[j] = f
				}
				for _, f := range futures {
					select {
					case <-f.Ok():
					case err := <-f.Err():
						b.Errorf("raw async publish: %v", err)
						return
					}
				}
				done.Add(int64(size))
			}
		})
	}
	wg.Wait()
	return float64(done.Load()) / time.Since(stop.Add(-d)).Seconds()
}

// atomicPublishes is asyncPublishes with each round sent as one JetStream
// atomic batch (only the commit waits for an answer).
func (r *rawStream) atomicPublishes(b *testing.B, publishers, size int, d time.Duration) float64 {
	b.Helper()
	var done atomic.Int64
	var wg sync.WaitGroup
	stop := time.Now().Add(d)
	nc := r.js.Conn()
	for i := range publishers {
		wg.Go(func() {
			for k := 0; time.Now().Before(stop); k++ {
				id := fmt.Sprintf("t%d-%d-%d", publishers, i, k)
				for j := range size {
					msg := &nats.Msg{Subject: fmt.Sprintf("bench.raw.grants.user-agent.b%d.bench", j), Data: r.data, Header: nats.Header{}}
					msg.Header.Set("Cmem-Type", "user_agent_granted")
					msg.Header.Set(jetstream.MsgIDHeader, fmt.Sprintf("%s-%d", id, j))
					msg.Header.Set(jetstream.ExpectedStreamHeader, r.name)
					msg.Header.Set("Nats-Batch-Id", id)
					msg.Header.Set("Nats-Batch-Sequence", fmt.Sprint(j+1))
					if j < size-1 {
						if err := nc.PublishMsg(msg); err != nil {
							b.Errorf("raw atomic publish: %v", err)
							return
						}
						continue
					}
					msg.Header.Set("Nats-Batch-Commit", "1")
					resp, err := nc.RequestMsg(msg, 30*time.Second)
					if err != nil || bytes.Contains(resp.Data, []byte(`"error"`)) {
						b.Errorf("raw atomic commit: %v %s", err, resp.Data)
						return
					}
				}
				done.Add(int64(size))
			}
		})
	}
	wg.Wait()
	return float64(done.Load()) / time.Since(stop.Add(-d)).Seconds()
}

// logAtomic appends batches of size grant events straight to the node's
// log (eventlog.AppendAtomic) from clients for d: the batch endpoint less
// HTTP and the use cases.
func logAtomic(b *testing.B, n *node.Node, clients, size int, d time.Duration) float64 {
	b.Helper()
	var done atomic.Int64
	var wg sync.WaitGroup
	stop := time.Now().Add(d)
	for range clients {
		wg.Go(func() {
			for time.Now().Before(stop) {
				es := make([]eventlog.Entry, size)
				for j := range es {
					e, err := events.New(events.Meta{Source: "bench", Actor: "admin"}, &events.UserAgentGranted{User: fmt.Sprintf("b%d", j%(size-1)), Agent: "bench"})
					if err != nil {
						b.Error(err)
						return
					}
					es[j] = eventlog.Entry{Event: e}
				}
				if _, err := n.Log.AppendAtomic(context.Background(), es); err != nil {
					b.Errorf("log atomic: %v", err)
					return
				}
				done.Add(int64(size))
			}
		})
	}
	wg.Wait()
	return float64(done.Load()) / time.Since(stop.Add(-d)).Seconds()
}
