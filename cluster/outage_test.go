package cluster_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/cmem/cmem/audit/clickhousetest"
	"github.com/cmem/cmem/cluster/clustertest"
)

// ClickHouse stops mid-load and comes back: commands and queries carry on
// (the log and the in-memory projections do not wait on it), and every
// gateway's audit trail catches up to the log head afterwards.
func TestClickHouseOutageUnderLoad(t *testing.T) {
	ch := clickhousetest.Start(t)
	c := clustertest.Start(t, clustertest.Options{Gateways: 2, Workers: 1, WorkerArgs: workerArgs,
		GatewayEnv: []string{"CMEM_CLICKHOUSE_DSN=" + ch.DSN(clickhousetest.Database("cluster"))}})
	l := clustertest.Setup(t, c, archive(t))
	under(t, l, func() func() {
		if err := ch.Stop(); err != nil {
			t.Fatal(err)
		}
		return func() {
			if err := ch.Start(); err != nil {
				t.Fatal(err)
			}
		}
	})
	head := uint64(l.Check(t))
	// Every gateway's trail reaches the head: a read with min_revision=head
	// answers (it waits for the projector, and says 503 while it lags).
	deadline := time.Now().Add(2 * time.Minute)
	for _, g := range c.Gateways {
		for {
			st, b, err := clustertest.Call("GET", fmt.Sprintf("%s/v1/audit/reads?fragment=none&min_revision=%d", g.Base(), head),
				clustertest.AdminToken, nil)
			if err == nil && st == 200 {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("audit trail of %s did not reach revision %d: %d %v %v", g.Addr, head, st, b, err)
			}
			time.Sleep(500 * time.Millisecond)
		}
	}
}
