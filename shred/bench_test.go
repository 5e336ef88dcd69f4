package shred_test

import (
	"context"
	"encoding/base64"
	"fmt"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/events/eventlog"
	"github.com/cmem/cmem/events/eventlog/logtest"
	"github.com/cmem/cmem/internal/benchfig"
	"github.com/cmem/cmem/projectors"
	"github.com/cmem/cmem/projectors/memory"
	"github.com/cmem/cmem/projectors/query"
	"github.com/cmem/cmem/shred"
)

const benchEvents = 20_000

// BenchmarkSealing appends the same 20k-event workload (fragments with a
// 256-d embedding, each under its own key, and query events, ten per
// query key) to a fresh embedded log with content in clear and sealed, and
// rebuilds the fragment registry and the query projection from each. The
// clear run is the baseline measured in the same process; the ratios are
// the cost of crypto-shredding. Each rebuild is also recorded against a
// bare ordered-consumer read of its own stream, timed just before it.
func BenchmarkSealing(b *testing.B) {
	var appendPlain, appendSealed, rebuildPlain, rebuildSealed, rawPlain, rawSealed time.Duration
	var cpuPlain, cpuSealed cpuTimes
	for b.Loop() {
		d1, d2, r1 := run(b, false, &cpuPlain)
		d3, d4, r2 := run(b, true, &cpuSealed)
		appendPlain, rebuildPlain, rawPlain = appendPlain+d1, rebuildPlain+d2, rawPlain+r1
		appendSealed, rebuildSealed, rawSealed = appendSealed+d3, rebuildSealed+d4, rawSealed+r2
	}
	// The rebuild against the raw read in CPU time, which the load of
	// other processes on the machine does not move.
	b.ReportMetric(cpuPlain.raw.Seconds()/cpuPlain.rebuild.Seconds(), "cpu-ratio-clear")
	b.ReportMetric(cpuSealed.raw.Seconds()/cpuSealed.rebuild.Seconds(), "cpu-ratio-sealed")
	n := float64(b.N * benchEvents)
	// CPU per event, the figure a profile is read against.
	perEvent := func(d time.Duration) float64 { return float64(d.Microseconds()) / n }
	b.ReportMetric(perEvent(cpuPlain.raw), "raw-clear-cpu-µs/event")
	b.ReportMetric(perEvent(cpuPlain.rebuild), "rebuild-clear-cpu-µs/event")
	b.ReportMetric(perEvent(cpuSealed.raw), "raw-sealed-cpu-µs/event")
	b.ReportMetric(perEvent(cpuSealed.rebuild), "rebuild-sealed-cpu-µs/event")
	rate := func(d time.Duration) float64 { return n / d.Seconds() }
	b.ReportMetric(rate(appendPlain), "append-clear-events/s")
	b.ReportMetric(rate(appendSealed), "append-sealed-events/s")
	b.ReportMetric(rate(appendSealed)/rate(appendPlain), "append-ratio")
	b.ReportMetric(rate(rebuildPlain), "rebuild-clear-events/s")
	b.ReportMetric(rate(rebuildSealed), "rebuild-sealed-events/s")
	b.ReportMetric(rate(rebuildSealed)/rate(rebuildPlain), "rebuild-ratio")
	benchfig.Record(b, benchfig.Figure{Name: "append, content sealed (crypto-shredding)", Value: rate(appendSealed), Unit: "events/s",
		Baseline: "the same append in clear", BaselineValue: rate(appendPlain)})
	benchfig.Record(b, benchfig.Figure{Name: "rebuild, content sealed", Value: rate(rebuildSealed), Unit: "events/s",
		Baseline: "the same rebuild in clear", BaselineValue: rate(rebuildPlain)})
	b.ReportMetric(0, "ns/op")
	for _, f := range []struct {
		what         string
		rebuild, raw time.Duration
	}{{"in clear", rebuildPlain, rawPlain}, {"sealed", rebuildSealed, rawSealed}} {
		benchfig.Record(b, benchfig.Figure{
			Name:  fmt.Sprintf("projection rebuild, content %s (fragments and queries, %dk events)", f.what, benchEvents/1000),
			Value: rate(f.rebuild), Unit: "events/s", Baseline: "raw ordered-consumer read, same stream",
			BaselineValue: rate(f.raw), Goal: "≥ 0.7×",
		})
	}
}

// rawRead is how long a bare ordered consumer takes to read the first n
// events of l and do nothing with them.
func rawRead(b *testing.B, l *eventlog.Log, n int) time.Duration {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	count := 0
	start := time.Now()
	_ = l.Follow(ctx, 1, func(eventlog.Msg) error {
		if count++; count == n {
			cancel()
		}
		return nil
	})
	if count != n {
		b.Fatalf("raw read %d of %d", count, n)
	}
	return time.Since(start)
}

// cpuTimes is the process CPU time of the raw reads and of the rebuilds.
type cpuTimes struct{ raw, rebuild time.Duration }

func run(b *testing.B, sealed bool, cpu *cpuTimes) (appendTook, rebuildTook, rawTook time.Duration) {
	ctx := context.Background()
	l := logtest.Open(b, "")
	if sealed {
		k, err := shred.OpenKeyring(ctx, l.JetStream(), "", 1, nil)
		if err != nil {
			b.Fatal(err)
		}
		defer k.Close()
		l.SetSealer(shred.NewSealer(k))
	}
	es := workload(b)
	start := time.Now()
	const chunk = 1000
	for i := 0; i < len(es); i += chunk {
		if _, err := l.AppendBatch(ctx, es[i:min(i+chunk, len(es))]); err != nil {
			b.Fatal(err)
		}
	}
	appendTook = time.Since(start)
	c0 := benchfig.ProcessCPU()
	rawTook = rawRead(b, l, len(es))
	c1 := benchfig.ProcessCPU()
	cpu.raw += c1 - c0

	start = time.Now()
	if sealed { // a rebuilding process loads the keys first
		k, err := shred.OpenKeyring(ctx, l.JetStream(), "", 1, nil)
		if err != nil {
			b.Fatal(err)
		}
		defer k.Close()
		l.SetSealer(shred.NewSealer(k))
	}
	r, err := projectors.NewRunner(l, logtest.Logger(), memory.NewFragments(), query.NewProjection())
	if err != nil {
		b.Fatal(err)
	}
	rctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { defer close(done); _ = r.Run(rctx) }()
	if err := r.WaitFor(ctx, uint64(len(es))); err != nil {
		b.Fatal(err)
	}
	rebuildTook = time.Since(start)
	cpu.rebuild += benchfig.ProcessCPU() - c1
	cancel()
	<-done
	return appendTook, rebuildTook, rawTook
}

func workload(b *testing.B) []events.Envelope {
	vec := base64.StdEncoding.EncodeToString(make([]byte, 4*256))
	out := make([]events.Envelope, 0, benchEvents)
	add := func(p events.Payload) {
		e, err := events.New(events.Meta{Source: "bench", Actor: "u"}, p)
		if err != nil {
			b.Fatal(err)
		}
		out = append(out, e)
	}
	for i := 0; len(out) < benchEvents; i++ {
		user := fmt.Sprintf("u%d", i%50)
		if i%2 == 0 {
			add(&events.FragmentWritten{ID: uuid.NewString(), User: user, Key: fmt.Sprintf("fact %d about travel", i),
				Value: fmt.Sprintf("the value of fact %d is a sentence of ordinary length for a memory", i), Tier: "shared",
				Agents: []string{"planner"}, Resources: []string{}, CreatedAt: time.Now(), Provenance: events.ProvenanceTransitive,
				Policy: events.PolicyTrace{Kind: "simple", Scope: "global"}, Embedding: &events.Embedding{Model: "hash", Dims: 256, Vector: vec}})
			continue
		}
		q := uuid.NewString()
		label := &events.Label{Agents: []string{"planner"}, Resources: []string{}}
		add(&events.QuerySubmitted{ID: q, User: user, Text: fmt.Sprintf("question %d about the trip", i), Channel: "http"})
		for round := 1; round <= 4; round++ {
			add(&events.AgentSelected{QueryID: q, User: user, Round: round, Agent: "planner", Subquery: "sub question", Offered: []string{"planner"}, Label: label})
			add(&events.AgentResponded{QueryID: q, User: user, Round: round, Agent: "planner", Subquery: "sub question",
				Response: "an answer of a few words", Resources: []string{}, FragmentsRead: []string{}, FragmentsWritten: []string{}, Label: label})
		}
		add(&events.QueryAnswered{QueryID: q, User: user, Answer: "the final answer", Rounds: 4, Agents: []string{"planner"},
			FragmentsRead: []string{}, FragmentsWritten: []string{}, Label: label})
	}
	return out[:benchEvents]
}
