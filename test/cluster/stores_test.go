package cluster_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/cmem/cmem/projectors/audit/clickhouse/clickhousetest"
	"github.com/cmem/cmem/test/cluster/clustertest"
	"github.com/cmem/cmem/vectors/weaviate/weaviatetest"
)

// The external stores come and go under load, on a cluster where every
// process (two gateways, one worker) projects the log into one Weaviate
// class and one ClickHouse database: Weaviate is killed and restarted,
// ClickHouse is stopped and started, and the process running the
// projectors (the worker) is killed and restarted. Through each, commands
// — fragment writes included — are acknowledged (the log never waits on a
// store), and afterwards, besides the load's checks (nothing acknowledged
// lost or doubled, queries answered once, no stale read after a revoke,
// every process's digest equal at the head — which waits for its vector
// view): ClickHouse holds every event once at its revision, Weaviate one
// object per fragment with each acknowledged one at its revision, and its
// checkpoint at the last fragment event.
func TestStoreOutagesUnderLoad(t *testing.T) {
	// Weaviate starts while ClickHouse does (10 s or more each here).
	type started struct {
		s   *weaviatetest.Server
		err error
	}
	ws := make(chan started, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
		defer cancel()
		s, err := weaviatetest.Start(ctx)
		ws <- started{s, err}
	}()
	var w *weaviatetest.Server
	t.Cleanup(func() { // also when ClickHouse failed to start
		if w == nil {
			if st := <-ws; st.err == nil {
				st.s.Stop()
			}
			return
		}
		w.Stop()
	})
	ch := clickhousetest.Start(t)
	st := <-ws // bounded by Start's own context
	if st.err != nil {
		t.Fatal(st.err)
	}
	w = st.s
	dsn, class := ch.DSN(clickhousetest.Database("cluster")), weaviatetest.Class(t)
	c := clustertest.Start(t, clustertest.Options{Gateways: 2, Workers: 1, WorkerArgs: workerArgs,
		Env: []string{"CMEM_CLICKHOUSE_DSN=" + dsn, "CMEM_WEAVIATE_URL=" + w.URL, "CMEM_WEAVIATE_GRPC=" + w.GRPCAddr,
			"CMEM_WEAVIATE_CLASS=" + class}})
	l := clustertest.Setup(t, c, archive(t))
	// Fewer queries than the other fault tests: every process here also
	// feeds Weaviate and ClickHouse on the same two cores, and a query's
	// agents read memory through Weaviate.
	l.QueryGap = time.Second
	stores := func(t *testing.T) {
		l.CheckAuditTrail(t, dsn)
		l.CheckVectorView(t, w.URL, w.GRPCAddr, class)
		auditAtHead(t, c, uint64(len(l.Log())))
	}
	t.Run("Weaviate killed", func(t *testing.T) {
		d := under(t, l, func() func() {
			if err := w.Kill(); err != nil {
				t.Fatal(err)
			}
			return func() {
				ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
				defer cancel()
				if err := w.Restart(ctx); err != nil {
					t.Fatal(err)
				}
			}
		})
		if d.fragments == 0 {
			t.Error("no fragment write was acknowledged while Weaviate was down: ingest waited on the view")
		}
		stores(t)
	})
	t.Run("ClickHouse stopped", func(t *testing.T) {
		d := under(t, l, func() func() {
			if err := ch.Stop(); err != nil {
				t.Fatal(err)
			}
			return func() {
				if err := ch.Start(); err != nil {
					t.Fatal(err)
				}
			}
		})
		if d.commands == 0 {
			t.Error("no command was acknowledged while ClickHouse was down")
		}
		stores(t)
	})
	t.Run("projector process killed", func(t *testing.T) {
		under(t, l, func() func() {
			p := c.Workers[0]
			p.Kill()
			return func() { p.Start(t, 90*time.Second) }
		})
		stores(t)
	})
}

// auditAtHead asserts that every gateway's audit trail reaches head: a
// read with min_revision=head answers (it waits for the projector, and
// says 503 while it lags).
func auditAtHead(t *testing.T, c *clustertest.Cluster, head uint64) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for _, g := range c.Gateways {
		for {
			st, b, err := clustertest.Poll(fmt.Sprintf("%s/v1/audit/reads?fragment=none&min_revision=%d", g.Base(), head),
				clustertest.AdminToken)
			if err == nil && st == 200 {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("audit trail of %s did not reach revision %d within 2 minutes: %d %v %v", g.Addr, head, st, b, err)
			}
			time.Sleep(500 * time.Millisecond)
		}
	}
}
