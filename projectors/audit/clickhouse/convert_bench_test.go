package clickhouse

import (
	"context"
	"testing"
	"time"

	"github.com/cmem/cmem/events/eventlog/logtest"
	"github.com/cmem/cmem/internal/benchfig"
	"github.com/cmem/cmem/projectors/audit/audittest"
)

// BenchmarkConvert is the projector's own work without ClickHouse: reading
// the log, converting every event into rows and laying the rows out as the
// columns a flush inserts. cpu_µs/event is this process's CPU (the
// embedded log server included), which other load does not move.
func BenchmarkConvert(b *testing.B) {
	w := audittest.NewWorkload(42, 500, 40, 80, 50_000)
	l := logtest.Open(b, "")
	head := audittest.AppendLog(b, l, w.Envs)
	p, err := NewProjector(Config{DSN: "clickhouse://127.0.0.1:9000/bench"}, l, nil, logtest.Logger())
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	cpu := time.Duration(0)
	for b.Loop() {
		c0 := benchfig.ProcessCPU()
		ctx, cancel := context.WithCancelCause(context.Background())
		chunks, converted := p.convert(ctx, cancel, 1)
		bt := &batch{}
		for bt.last < head {
			c := <-chunks
			<-c.done
			bt.merge(&c.rows)
			c.release()
			if bt.len() >= p.cfg.BatchSize || bt.last == head {
				cols := bt.scratches()
				for i, t := range typedTableList {
					_ = t.build(bt, &cols[i])
				}
				for _, run := range partitionRuns(bt.events) {
					sc := &cols[len(typedTableList)]
					sc.reset()
					_ = eventsTable(run, sc)
				}
				bt.reset()
			}
		}
		cancel(nil)
		<-converted
		cpu += benchfig.ProcessCPU() - c0
	}
	b.ReportMetric(float64(cpu.Microseconds())/float64(b.N)/float64(head), "cpu_µs/event")
}
