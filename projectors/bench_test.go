package projectors_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/events/eventlog"
	"github.com/cmem/cmem/events/eventlog/logtest"
	"github.com/cmem/cmem/internal/benchfig"
	"github.com/cmem/cmem/projectors"
	"github.com/cmem/cmem/projectors/access"
)

const rebuildEvents = 100_000

// BenchmarkRebuildVsRawRead reads the same 100k-event stream twice per
// iteration: once with a bare ordered consumer that only counts (the
// baseline: what JetStream delivers), once through the projection runner
// (schema check, decode, apply to the access graph). The ratio of the two
// rates is the figure that matters; cpu-ratio is the same in CPU time.
func BenchmarkRebuildVsRawRead(b *testing.B) {
	ctx := context.Background()
	l := logtest.Open(b, "")
	fill(b, l, rebuildEvents)
	var raw, rebuilt, rawCPU, rebuiltCPU time.Duration
	for b.Loop() {
		c0 := benchfig.ProcessCPU()
		raw += timeRawRead(b, l, rebuildEvents)
		c1 := benchfig.ProcessCPU()
		rebuilt += timeRebuild(b, ctx, l, rebuildEvents)
		rawCPU, rebuiltCPU = rawCPU+c1-c0, rebuiltCPU+benchfig.ProcessCPU()-c1
	}
	n := float64(b.N * rebuildEvents)
	rawRate, rebuildRate := n/raw.Seconds(), n/rebuilt.Seconds()
	b.ReportMetric(rawRate, "raw-events/s")
	b.ReportMetric(rebuildRate, "rebuild-events/s")
	b.ReportMetric(rebuildRate/rawRate, "ratio")
	// The same comparison in CPU time, which the load of other processes
	// on the machine does not move: raw CPU per event over rebuild CPU.
	b.ReportMetric(rawCPU.Seconds()/rebuiltCPU.Seconds(), "cpu-ratio")
	b.ReportMetric(float64(rawCPU.Microseconds())/n, "raw-cpu-µs/event")
	b.ReportMetric(float64(rebuiltCPU.Microseconds())/n, "rebuild-cpu-µs/event")
	b.ReportMetric(0, "ns/op")
	benchfig.Record(b, benchfig.Figure{
		Name: "projection rebuild (access graph, 100k events)", Value: rebuildRate, Unit: "events/s",
		Baseline: "raw ordered-consumer read, same stream", BaselineValue: rawRate, Goal: "≥ 0.7×",
	})
}

func fill(b *testing.B, l *eventlog.Log, n int) {
	rng := rand.New(rand.NewPCG(9, 9))
	t0 := time.Now().Add(-time.Duration(n) * time.Millisecond)
	const chunk = 10_000
	for start := 0; start < n; start += chunk {
		batch := make([]events.Envelope, 0, chunk)
		for i := start; i < min(n, start+chunk); i++ {
			var p events.Payload = &events.UserAgentGranted{User: fmt.Sprintf("u%d", rng.IntN(10_000)), Agent: fmt.Sprintf("a%d", rng.IntN(100))}
			if i%5 >= 3 {
				p = &events.AgentResourceGranted{Agent: fmt.Sprintf("a%d", rng.IntN(100)), Resource: fmt.Sprintf("r%d", rng.IntN(1000))}
			}
			e, err := events.New(events.Meta{Source: "bench", Actor: "admin", Time: t0.Add(time.Duration(i) * time.Millisecond)}, p)
			if err != nil {
				b.Fatal(err)
			}
			batch = append(batch, e)
		}
		if _, err := l.AppendBatch(context.Background(), batch); err != nil {
			b.Fatal(err)
		}
	}
}

func timeRawRead(b *testing.B, l *eventlog.Log, n int) time.Duration {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	count := 0
	start := time.Now()
	_ = l.Follow(ctx, 1, func(m eventlog.Msg) error {
		count++
		if count == n {
			cancel()
		}
		return nil
	})
	if count != n {
		b.Fatalf("raw read %d of %d", count, n)
	}
	return time.Since(start)
}

func timeRebuild(b *testing.B, ctx context.Context, l *eventlog.Log, n int) time.Duration {
	r, err := projectors.NewRunner(l, logtest.Logger(), access.NewGraph())
	if err != nil {
		b.Fatal(err)
	}
	rctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	start := time.Now()
	go func() { defer close(done); _ = r.Run(rctx) }()
	if err := r.WaitFor(ctx, uint64(n)); err != nil {
		b.Fatal(err)
	}
	d := time.Since(start)
	cancel()
	<-done
	return d
}
