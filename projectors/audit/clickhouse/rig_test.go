package clickhouse_test

import (
	"context"
	"github.com/cmem/cmem/domain"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/events/eventlog"
	"github.com/cmem/cmem/events/eventlog/logtest"
	"github.com/cmem/cmem/projectors"
	"github.com/cmem/cmem/projectors/access"
	"github.com/cmem/cmem/projectors/audit"
	"github.com/cmem/cmem/projectors/audit/audittest"
	"github.com/cmem/cmem/projectors/audit/clickhouse"
	"github.com/cmem/cmem/projectors/audit/clickhouse/clickhousetest"
)

func TestMain(m *testing.M) { os.Exit(clickhousetest.Main(m)) }

var adminID = domain.Identity{ID: "admin", Admin: true}

// rig is one log with both audit backends on it: the in-process history
// (next to its access graph, on a projection runner) and ClickHouse (fed
// by the projector), each behind a Service.
type rig struct {
	log       *eventlog.Log
	runner    *projectors.Runner
	history   *audit.History
	store     *clickhouse.Store
	projector *clickhouse.Projector
	inproc    *audit.Service
	ch        *audit.Service
}

func newRig(t testing.TB, srv *clickhousetest.Server, cfg clickhouse.Config) *rig {
	t.Helper()
	r := &rig{log: logtest.Open(t, "")}
	graph := access.NewGraph()
	r.history = audit.NewHistory(graph)
	var err error
	if r.runner, err = projectors.NewRunner(r.log, logtest.Logger(), graph, r.history); err != nil {
		t.Fatal(err)
	}
	cfg.DSN = srv.DSN(clickhousetest.Database("audit"))
	if r.store, err = clickhouse.OpenStore(cfg.DSN, logtest.Logger()); err != nil {
		t.Fatal(err)
	}
	if r.projector, err = clickhouse.NewProjector(cfg, r.log, r.store, logtest.Logger()); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); _ = r.runner.Run(ctx) }()
	go func() { defer wg.Done(); _ = r.projector.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		wg.Wait()
		_ = r.store.Close()
	})
	scfg := audit.ServiceConfig{ReadWait: 30 * time.Second, Poll: 10 * time.Millisecond}
	if r.inproc, err = audit.NewService(scfg, r.history); err != nil {
		t.Fatal(err)
	}
	if r.ch, err = audit.NewService(scfg, r.store); err != nil {
		t.Fatal(err)
	}
	return r
}

func (r *rig) append(t testing.TB, envs []events.Envelope) uint64 {
	t.Helper()
	return audittest.AppendLog(t, r.log, envs)
}

// caughtUp waits until both backends hold every event up to the head.
func (r *rig) caughtUp(t testing.TB) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	head, err := r.log.Head(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	if err := r.runner.WaitFor(ctx, head); err != nil {
		t.Fatal(err)
	}
	for r.projector.Revision() < head {
		select {
		case <-ctx.Done():
			t.Fatalf("audit projector at %d, log head %d", r.projector.Revision(), head)
		case <-time.After(10 * time.Millisecond):
		}
	}
}
