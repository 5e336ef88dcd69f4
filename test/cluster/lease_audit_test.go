package cluster_test

import (
	"context"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/cmem/cmem/events/eventlog/logtest"
	"github.com/cmem/cmem/node"
	"github.com/cmem/cmem/node/nodetest"
	"github.com/cmem/cmem/projectors/audit/clickhouse"
	"github.com/cmem/cmem/projectors/audit/clickhouse/clickhousetest"
)

// Two processes on one log project into one ClickHouse database: only the
// lease holder inserts, so the events table holds each event once even
// with merges stopped (nothing folds duplicates away); when the holder
// stops, the other takes over from what ClickHouse holds, losing and
// doubling nothing.
func TestAuditRowsAreWrittenOnceAndTakenOver(t *testing.T) {
	srv := clickhousetest.Start(t)
	dsn := srv.DSN(clickhousetest.Database("lease"))
	host, c := nodetest.StartClient(t, nil)
	on := func(cfg *node.Config) {
		cfg.NATSURL, cfg.HTTPAddr, cfg.Audit.DSN = host.Log.ConnectURL(), "127.0.0.1:0", dsn
	}
	a := nodetest.Start(t, on)
	waitCond(t, "a holds the audit lease", func() bool { return a.AuditLease() != nil && a.AuditLease().Held() })
	b := nodetest.Start(t, on)
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	// The test's own connection: the processes' close with them.
	store, err := clickhouse.OpenStore(dsn, logtest.Logger())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = store.Close() })
	conn, db := store.Conn(), store.Database()
	waitCond(t, "the events table exists", func() bool {
		var n uint64
		return conn.QueryRow(ctx, "SELECT count() FROM system.tables WHERE database = ? AND name = 'events'", db).Scan(&n) == nil && n == 1
	})
	if err := conn.Exec(ctx, "SYSTEM STOP MERGES "+db+".events"); err != nil {
		t.Fatal(err)
	}
	c.Must(http.StatusCreated, "POST", "/v1/agents", nodetest.AdminToken, map[string]string{"id": "scribe", "description": "keeps notes"})
	alice := c.User("alice", "")
	c.Must(http.StatusOK, "PUT", "/v1/grants/user-agent/alice/scribe", nodetest.AdminToken, nil)
	write := func(n int, prefix string) uint64 {
		var rev uint64
		for i := range n {
			r := c.Must(http.StatusCreated, "POST", "/v1/fragments", alice, map[string]any{"agent": "scribe", "key": fmt.Sprintf("%s-%d", prefix, i), "value": "note", "tier": "private"})
			rev = r.Revision()
		}
		return rev
	}
	// atHead waits until ClickHouse holds every event up to head and every
	// process that writes it (the holder; without leases, all) got there.
	atHead := func(head uint64, procs ...*node.Node) {
		t.Helper()
		waitCond(t, "ClickHouse reaches the head", func() bool {
			rev, err := store.Revision(ctx)
			return err == nil && rev >= head
		})
		for _, p := range procs {
			if p.AuditLease() == nil || p.AuditLease().Held() {
				waitCond(t, "a writing process reaches the head", func() bool { return p.Audit.Projector.Revision() >= head })
			}
		}
	}
	rowsPerEvent := func(head uint64) {
		t.Helper()
		var rows, distinct uint64
		if err := conn.QueryRow(ctx, "SELECT count(), uniqExact(id) FROM events WHERE revision <= ?", head).Scan(&rows, &distinct); err != nil {
			t.Fatal(err)
		}
		t.Logf("%d rows, %d distinct events up to revision %d", rows, distinct, head)
		if distinct != head {
			t.Errorf("%d distinct events in ClickHouse up to revision %d, want %d: events lost", distinct, head, head)
		}
		if rows != distinct {
			t.Errorf("%d rows for %d events: inserts multiplied with the processes", rows, distinct)
		}
	}
	head := write(10, "before")
	atHead(head, a, b)
	rowsPerEvent(head)

	a.Close()
	waitCond(t, "b takes the audit lease over", func() bool { return b.AuditLease().Held() })
	head = write(10, "after")
	atHead(head, b)
	rowsPerEvent(head)
}
