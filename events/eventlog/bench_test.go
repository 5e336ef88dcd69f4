package eventlog_test

import (
	"context"
	"fmt"
	"github.com/cmem/cmem/internal/benchfig"
	"testing"
	"time"

	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/events/eventlog"
	"github.com/cmem/cmem/events/eventlog/logtest"
)

// BenchmarkAppendSync measures what fsync-before-ack (the embedded
// server's default) costs a command: b.N acknowledged appends one after
// another, as HTTP commands do, with sync always and with nats-server's
// default 2-minute interval, in the same run. sync-cost-x is the ratio of
// their per-append latency.
func BenchmarkAppendSync(b *testing.B) {
	run := func(b *testing.B, interval time.Duration) time.Duration {
		b.Helper()
		ctx := context.Background()
		l, err := eventlog.Open(ctx, eventlog.Config{DataDir: b.TempDir(), Port: -1, SyncInterval: interval}, logtest.Logger())
		if err != nil {
			b.Fatal(err)
		}
		defer l.Close()
		const n = 500
		es := make([]events.Envelope, n)
		for i := range es {
			if es[i], err = events.New(events.Meta{Source: "bench", Actor: "admin"},
				&events.AgentRegistered{ID: fmt.Sprintf("a%d", i), Description: "d"}); err != nil {
				b.Fatal(err)
			}
		}
		start := time.Now()
		for _, e := range es {
			if _, err := l.Append(ctx, e); err != nil {
				b.Fatal(err)
			}
		}
		return time.Since(start) / n
	}
	for range b.N {
		always, interval := run(b, 0), run(b, 2*time.Minute)
		b.ReportMetric(float64(always.Microseconds()), "sync-always-us/append")
		b.ReportMetric(float64(interval.Microseconds()), "sync-2m-us/append")
		b.ReportMetric(float64(always)/float64(interval), "sync-cost-x")
		b.ReportMetric(0, "ns/op")
		benchfig.Record(b, benchfig.Figure{Name: "one acknowledged append, fsync always (the default)", Value: float64(always.Microseconds()),
			Unit: "µs", Baseline: "fsync every 2 min (nats-server's default)", BaselineValue: float64(interval.Microseconds()), LowerIsBetter: true})
	}
}
