package node_test

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/cmem/cmem/eventlog"
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
	n := nodetest.Start(b, nil)
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
			cmds, p99 := driveCommands(b, n, clients, d)
			a1, h1 := eventlog.LeaderRequests()
			pubs := raw.syncPublishes(b, clients, d)
			perCmd := float64(a1+h1-a0-h0) / (cmds * d.Seconds())
			b.ReportMetric(cmds, fmt.Sprintf("cmds/s-%d", clients))
			b.ReportMetric(pubs, fmt.Sprintf("raw-pubs/s-%d", clients))
			b.ReportMetric(p99, fmt.Sprintf("p99-ms-%d", clients))
			b.ReportMetric(perCmd, fmt.Sprintf("leader-requests/cmd-%d", clients))
			benchfig.Record(b, benchfig.Figure{
				Name: fmt.Sprintf("commands over HTTP (grant/revoke), %d clients", clients), Value: cmds, Unit: "commands/s",
				Baseline: fmt.Sprintf("raw JetStream sync publish, %d publishers", clients), BaselineValue: pubs, Goal: "≥ 0.5×",
			})
			benchfig.Record(b, benchfig.Figure{
				Name:  fmt.Sprintf("leader round trips per command, %d clients", clients),
				Value: perCmd, Unit: "requests", LowerIsBetter: true, Goal: "1 (the append)",
				Baseline: "one acknowledged publish", BaselineValue: 1,
			})
		}
	}
	b.ReportMetric(0, "ns/op")
}

// driveCommands runs clients that each toggle their own user's grant for d
// and returns commands/s and the p99 latency in ms.
func driveCommands(b *testing.B, n *node.Node, clients int, d time.Duration) (float64, float64) {
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
	slices.Sort(lat)
	var p99 float64
	if len(lat) > 0 {
		p99 = float64(lat[len(lat)*99/100].Microseconds()) / 1000
	}
	return float64(done.Load()) / d.Seconds(), p99
}

// rawStream is a stream on the node's server configured like the event
// log, for the baselines.
type rawStream struct {
	js   jetstream.JetStream
	name string
	data []byte
}

func openRawStream(b *testing.B, n *node.Node) *rawStream {
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
	return float64(done.Load()) / d.Seconds()
}
