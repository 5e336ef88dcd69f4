package clickhouse_test

import (
	"context"
	"testing"
	"time"

	"github.com/cmem/cmem/projectors/audit/audittest"
	"github.com/cmem/cmem/projectors/audit/clickhouse"
	"github.com/cmem/cmem/projectors/audit/clickhouse/clickhousetest"
)

// TestOutageLosesNoRow stops ClickHouse in the middle of a workload: the
// log and the in-memory projections carry on, the lag grows, and once
// ClickHouse is back the projector catches up with every revision stored
// exactly once and both backends agreeing again.
func TestOutageLosesNoRow(t *testing.T) {
	srv := clickhousetest.Start(t)
	r := newRig(t, srv, clickhouse.Config{BatchSize: 300, RetryMin: 50 * time.Millisecond, RetryMax: 500 * time.Millisecond,
		LagInterval: 20 * time.Millisecond})
	w := audittest.NewWorkload(11, 8, 5, 6, 3000)
	half := len(w.Envs) / 2
	r.append(t, w.Envs[:half/2])
	r.caughtUp(t)

	// Events keep arriving while ClickHouse goes down: some batches are
	// written, one is cut off, the rest wait.
	done := make(chan struct{})
	go func() {
		defer close(done)
		r.append(t, w.Envs[half/2:half])
	}()
	if err := srv.Stop(); err != nil {
		t.Fatal(err)
	}
	<-done
	head := r.append(t, w.Envs[half:])
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	if err := r.runner.WaitFor(ctx, head); err != nil {
		t.Fatalf("in-memory projections stalled while clickhouse was down: %v", err)
	}
	// The lag gauge sees the outage (measured against the log, which is up).
	for r.projector.Lag() <= 0 {
		select {
		case <-ctx.Done():
			t.Fatalf("lag stayed %d while clickhouse was down with the log at %d", r.projector.Lag(), head)
		case <-time.After(10 * time.Millisecond):
		}
	}
	if _, err := r.ch.Reads(ctx, adminID, "f00001", 0); err == nil {
		t.Fatal("clickhouse answered while stopped")
	}
	if r.projector.Revision() >= head {
		t.Fatalf("projector claims revision %d of %d while clickhouse is down", r.projector.Revision(), head)
	}

	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	r.caughtUp(t)
	var rows, distinctRevs, distinctIDs, minRev, maxRev uint64
	err := r.store.Conn().QueryRow(ctx, "SELECT count(), uniqExact(revision), uniqExact(id), min(revision), max(revision) FROM events FINAL").
		Scan(&rows, &distinctRevs, &distinctIDs, &minRev, &maxRev)
	if err != nil {
		t.Fatal(err)
	}
	if rows != head || distinctRevs != head || distinctIDs != head || minRev != 1 || maxRev != head {
		t.Fatalf("after the outage the trail holds %d rows, %d revisions, %d ids in [%d, %d]; want every revision 1..%d once",
			rows, distinctRevs, distinctIDs, minRev, maxRev, head)
	}
	for _, table := range []string{"grants", "fragments", "reads", "query_facts", "deliveries"} {
		var got uint64
		if err := r.store.Conn().QueryRow(ctx, "SELECT uniqExact(event_id) FROM "+table).Scan(&got); err != nil {
			t.Fatal(err)
		}
		if got == 0 {
			t.Fatalf("%s is empty after the outage", table)
		}
	}
	audittest.Compare(t, r.inproc, r.ch, w, 2, 100, 100)
	if lag := r.projector.Lag(); lag < 0 {
		t.Fatalf("lag %d", lag)
	}
}
