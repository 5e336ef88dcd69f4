package cluster_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/ClickHouse/clickhouse-go/v2"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/cmem/cmem/projectors/audit/clickhouse/clickhousetest"
	"github.com/cmem/cmem/test/cluster/clustertest"
)

// auditHolder returns the gateway whose process holds the ClickHouse
// lease (the key's value ends in the holder's pid), or nil.
func auditHolder(ctx context.Context, c *clustertest.Cluster) (*clustertest.Proc, error) {
	nc, err := nats.Connect(c.NATS.URLs())
	if err != nil {
		return nil, err
	}
	defer nc.Close()
	js, err := jetstream.New(nc)
	if err != nil {
		return nil, err
	}
	kv, err := js.KeyValue(ctx, "cmem_leases")
	if err != nil {
		return nil, err
	}
	keys, err := kv.ListKeys(ctx)
	if err != nil {
		return nil, err
	}
	for k := range keys.Keys() {
		if !strings.HasPrefix(k, "clickhouse-") {
			continue
		}
		e, err := kv.Get(ctx, k)
		if err != nil {
			return nil, err
		}
		for _, g := range c.Gateways {
			if pid := g.Pid(); pid != 0 && strings.HasSuffix(string(e.Value()), fmt.Sprintf("#%d", pid)) {
				return g, nil
			}
		}
	}
	return nil, nil
}

// The process holding the ClickHouse lease is killed (SIGKILL: no
// release): the other gateway takes over within a deadline, and ClickHouse
// then holds every event of the log, none lost.
func TestAuditLeaseTakenOverWhenItsHolderIsKilled(t *testing.T) {
	ch := clickhousetest.Start(t)
	dsn := ch.DSN(clickhousetest.Database("leasekill"))
	c := clustertest.Start(t, clustertest.Options{Gateways: 2, Env: []string{"CMEM_CLICKHOUSE_DSN=" + dsn}})
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var holder *clustertest.Proc
	waitCond(t, "a gateway holds the audit lease", func() bool {
		holder, _ = auditHolder(ctx, c)
		return holder != nil
	})
	other := c.Gateways[0]
	if other == holder {
		other = c.Gateways[1]
	}
	agent := func(id string) uint64 {
		st, b, err := clustertest.Call("POST", other.Base()+"/v1/agents", clustertest.AdminToken, map[string]string{"id": id, "description": "d"})
		if err != nil || st != 201 {
			t.Fatalf("POST /v1/agents: %d %v %v", st, b, err)
		}
		return clustertest.Revision(b)
	}
	for i := range 5 {
		agent(fmt.Sprintf("before-%d", i))
	}
	holder.Kill()
	killed := time.Now()
	var head uint64
	for i := range 5 {
		head = agent(fmt.Sprintf("after-%d", i))
	}
	opts, err := clickhouse.ParseDSN(dsn)
	if err != nil {
		t.Fatal(err)
	}
	conn, err := clickhouse.Open(opts)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = conn.Close() }()
	var top, ids uint64
	deadline := killed.Add(30 * time.Second)
	for {
		err := conn.QueryRow(ctx, "SELECT max(revision), uniqExactIf(id, revision <= $1) FROM events", head).Scan(&top, &ids)
		if err == nil && top >= head {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("ClickHouse at revision %d (%v) 30 s after its writer was killed, want %d", top, err, head)
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Logf("ClickHouse reached revision %d %s after its writer was killed", head, time.Since(killed).Round(time.Millisecond))
	if ids != head {
		t.Errorf("%d distinct events up to revision %d in ClickHouse, want %d: events lost", ids, head, head)
	}
	if h, err := auditHolder(ctx, c); err != nil || h != other {
		t.Errorf("the lease is held by %v (%v), want the surviving gateway", h, err)
	}
}
