package clickhouse_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/cmem/cmem/events/eventlog"
	"github.com/cmem/cmem/events/eventlog/logtest"
	"github.com/cmem/cmem/internal/benchfig"
	"github.com/cmem/cmem/projectors"
	"github.com/cmem/cmem/projectors/access"
	"github.com/cmem/cmem/projectors/audit"
	"github.com/cmem/cmem/projectors/audit/audittest"
	"github.com/cmem/cmem/projectors/audit/clickhouse"
	"github.com/cmem/cmem/projectors/audit/clickhouse/clickhousetest"
)

// benchEvents is the size of the benchmark logs: 100k by default, which
// `make bench` runs in about a minute on 2 cores; CMEM_BENCH_AUDIT_EVENTS=1000000
// gives the 1M-event figures.
func benchEvents(b *testing.B) int {
	n := 100_000
	if s := os.Getenv("CMEM_BENCH_AUDIT_EVENTS"); s != "" {
		var err error
		if n, err = strconv.Atoi(s); err != nil || n < 1000 {
			b.Fatalf("CMEM_BENCH_AUDIT_EVENTS=%q: want an integer >= 1000", s)
		}
	}
	return n
}

// benchLog is a log holding a random workload of n events.
func benchLog(b *testing.B, n int) (*eventlog.Log, *audittest.Workload) {
	b.Helper()
	w := audittest.NewWorkload(42, 500, 40, 80, n)
	l := logtest.Open(b, "")
	r := &rig{log: l}
	r.append(b, w.Envs)
	return l, w
}

func readAll(b *testing.B, l *eventlog.Log) []eventlog.Msg {
	b.Helper()
	head, err := l.Head(context.Background(), "")
	if err != nil {
		b.Fatal(err)
	}
	var msgs []eventlog.Msg
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	_ = l.Follow(ctx, 1, func(m eventlog.Msg) error {
		if m.Revision <= head {
			msgs = append(msgs, m)
		}
		if m.Revision >= head {
			cancel()
		}
		return nil
	})
	return msgs
}

// project runs a projector from l into a fresh database until it holds
// the head, and returns how long that took and how many rows it wrote.
func project(b *testing.B, srv *clickhousetest.Server, l *eventlog.Log) (time.Duration, uint64, *clickhouse.Store) {
	b.Helper()
	store, err := clickhouse.OpenStore(srv.DSN(clickhousetest.Database("bench")), logtest.Logger())
	if err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if err := store.Ensure(ctx); err != nil {
		b.Fatal(err)
	}
	p, err := clickhouse.NewProjector(clickhouse.Config{DSN: srv.DSN(store.Database())}, l, store, logtest.Logger())
	if err != nil {
		b.Fatal(err)
	}
	head, err := l.Head(ctx, "")
	if err != nil {
		b.Fatal(err)
	}
	start := time.Now()
	done := make(chan struct{})
	go func() { defer close(done); _ = p.Run(ctx) }()
	for p.Revision() < head {
		time.Sleep(time.Millisecond)
	}
	took := time.Since(start)
	cancel()
	<-done
	return took, countRows(b, store), store
}

func countRows(b *testing.B, s *clickhouse.Store) uint64 {
	var total uint64
	for _, t := range []string{"events", "grants", "fragments", "reads", "read_fragments", "query_facts"} {
		var n uint64
		if err := s.Conn().QueryRow(context.Background(), "SELECT count() FROM "+t).Scan(&n); err != nil {
			b.Fatal(err)
		}
		total += n
	}
	return total
}

// BenchmarkAuditInsert is the projector's end-to-end rate (log -> parse ->
// typed rows -> ClickHouse) next to bare clickhouse-go batch inserts of the
// same rows, prepared in advance, in the same run: row by row (Append) and
// column by column (Column().Append), each in batches of the projector's
// size. ratio_* is the projector's rows/s over the bare rate; cpu-ratio_*
// compares CPU time instead.
func BenchmarkAuditInsert(b *testing.B) {
	srv := clickhousetest.Shared(b)
	l, _ := benchLog(b, benchEvents(b))
	msgs := readAll(b, l)
	batchSize := clickhouse.Config{}.WithDefaults().BatchSize
	var chunks [][]clickhouse.RawTable
	for i := 0; i < len(msgs); i += batchSize {
		t, err := clickhouse.RawTables(msgs[i:min(i+batchSize, len(msgs))])
		if err != nil {
			b.Fatal(err)
		}
		chunks = append(chunks, t)
	}
	var projected, rowwise, columnar time.Duration
	var projectedCPU, columnarCPU cpuPair
	var rows uint64
	for b.Loop() {
		c0 := cpuNow(b, srv)
		took, n, store := project(b, srv, l)
		projected, rows = projected+took, n
		c1 := cpuNow(b, srv)
		_ = store.Close()
		rowwise += rawInsert(b, srv, chunks, false, n)
		c2 := cpuNow(b, srv)
		columnar += rawInsert(b, srv, chunks, true, n)
		c3 := cpuNow(b, srv)
		projectedCPU, columnarCPU = projectedCPU.add(c1.sub(c0)), columnarCPU.add(c3.sub(c2))
	}
	// The same comparison in CPU time (this process, which also runs the
	// log, plus the ClickHouse server), which the load of other processes
	// does not move: the bare insert's CPU over the projector's.
	b.ReportMetric(columnarCPU.total().Seconds()/projectedCPU.total().Seconds(), "cpu-ratio_columnar")
	b.ReportMetric(projectedCPU.self.Seconds()/float64(b.N), "projector_cpu_s")
	b.ReportMetric(projectedCPU.server.Seconds()/float64(b.N), "projector_server_cpu_s")
	b.ReportMetric(columnarCPU.self.Seconds()/float64(b.N), "columnar_cpu_s")
	b.ReportMetric(columnarCPU.server.Seconds()/float64(b.N), "columnar_server_cpu_s")
	rate := func(d time.Duration) float64 { return float64(rows) * float64(b.N) / d.Seconds() }
	b.ReportMetric(rate(projected), "projector_rows/s")
	b.ReportMetric(rate(rowwise), "raw_rowwise_rows/s")
	b.ReportMetric(rate(columnar), "raw_columnar_rows/s")
	b.ReportMetric(rate(projected)/rate(rowwise), "ratio_rowwise")
	b.ReportMetric(rate(projected)/rate(columnar), "ratio_columnar")
	b.ReportMetric(float64(len(msgs)), "events")
	benchfig.Record(b, benchfig.Figure{
		Name: fmt.Sprintf("audit projector into ClickHouse (%d events)", len(msgs)), Value: rate(projected), Unit: "rows/s",
		Baseline: "raw clickhouse-go columnar batch insert, same rows", BaselineValue: rate(columnar), Goal: "≥ 0.7×",
	})
}

// cpuPair is CPU time of this process and of the ClickHouse server.
type cpuPair struct{ self, server time.Duration }

func cpuNow(b *testing.B, srv *clickhousetest.Server) cpuPair {
	b.Helper()
	server, err := srv.CPU()
	if err != nil {
		b.Fatal(err)
	}
	return cpuPair{benchfig.ProcessCPU(), server}
}

func (c cpuPair) sub(o cpuPair) cpuPair { return cpuPair{c.self - o.self, c.server - o.server} }
func (c cpuPair) add(o cpuPair) cpuPair { return cpuPair{c.self + o.self, c.server + o.server} }
func (c cpuPair) total() time.Duration  { return c.self + c.server }

func rawInsert(b *testing.B, srv *clickhousetest.Server, chunks [][]clickhouse.RawTable, columnar bool, want uint64) time.Duration {
	b.Helper()
	ctx := context.Background()
	store, err := clickhouse.OpenStore(srv.DSN(clickhousetest.Database("raw")), logtest.Logger())
	if err != nil {
		b.Fatal(err)
	}
	defer func() { _ = store.Close() }()
	if err := store.Ensure(ctx); err != nil {
		b.Fatal(err)
	}
	conn := store.Conn()
	start := time.Now()
	for _, chunk := range chunks {
		for _, t := range chunk {
			batch, err := conn.PrepareBatch(ctx, t.Insert)
			if err != nil {
				b.Fatal(err)
			}
			if columnar {
				for i, col := range t.Columns {
					if err := batch.Column(i).Append(col); err != nil {
						b.Fatal(err)
					}
				}
			} else {
				for _, row := range t.Rows {
					if err := batch.Append(row...); err != nil {
						b.Fatal(err)
					}
				}
			}
			if err := batch.Send(); err != nil {
				b.Fatal(err)
			}
		}
	}
	took := time.Since(start)
	if got := countRows(b, store); got != want {
		b.Fatalf("the bare insert wrote %d rows, the projector %d", got, want)
	}
	return took
}

// BenchmarkVisibleAt is "M(u,a,t) at a past t" three ways over the same
// log: ClickHouse (the audit trail), the in-process history when it is
// already built, and what answering costs without an audit store:
// replaying the log into a fresh graph and history, then asking.
func BenchmarkVisibleAt(b *testing.B) {
	srv := clickhousetest.Shared(b)
	n := benchEvents(b)
	l, w := benchLog(b, n)
	_, _, store := project(b, srv, l)
	defer func() { _ = store.Close() }()
	head, err := l.Head(context.Background(), "")
	if err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	end := w.Times[len(w.Times)-1]
	question := func() (string, string, time.Time) {
		return w.Users[rng.IntN(len(w.Users))], w.Agents[rng.IntN(len(w.Agents))],
			w.T0.Add(time.Duration(rng.Int64N(int64(end.Sub(w.T0)))))
	}
	const perOp = 20
	ask := func(b *testing.B, backend audit.Backend) {
		ctx := context.Background()
		for b.Loop() {
			for range perOp {
				u, a, at := question()
				if _, err := backend.Visible(ctx, u, a, at); err != nil {
					b.Fatal(err)
				}
			}
		}
		b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N*perOp), "ms/query")
		b.ReportMetric(float64(n), "events")
	}
	b.Run("clickhouse", func(b *testing.B) { ask(b, store) })
	var history *audit.History
	b.Run("replay", func(b *testing.B) {
		ctx := context.Background()
		for b.Loop() {
			history = replay(b, l, head)
			u, a, at := question()
			if _, err := history.Visible(ctx, u, a, at); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/query")
		b.ReportMetric(float64(n), "events")
	})
	b.Run("history-built", func(b *testing.B) { ask(b, history) })
}

// replay rebuilds the access graph and the audit history from the log.
func replay(b *testing.B, l *eventlog.Log, head uint64) *audit.History {
	g := access.NewGraph()
	h := audit.NewHistory(g)
	r, err := projectors.NewRunner(l, logtest.Logger(), g, h)
	if err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); _ = r.Run(ctx) }()
	if err := r.WaitFor(context.Background(), head); err != nil {
		b.Fatal(err)
	}
	cancel()
	<-done
	return h
}
