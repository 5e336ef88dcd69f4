package clickhouse_test

import (
	"context"
	"testing"
	"time"

	"github.com/cmem/cmem/events/eventlog"
	"github.com/cmem/cmem/projectors/audit/audittest"
	"github.com/cmem/cmem/projectors/audit/clickhouse"
	"github.com/cmem/cmem/projectors/audit/clickhouse/clickhousetest"
)

// TestRedeliveredBatchDoublesNothing writes batches a second time, as a
// flush does when ClickHouse stored it but the acknowledgement was lost.
// Merges are stopped so the duplicates really are in the tables; every
// answer must still equal the in-process one.
func TestRedeliveredBatchDoublesNothing(t *testing.T) {
	srv := clickhousetest.Shared(t)
	r := newRig(t, srv, clickhouse.Config{BatchSize: 500})
	w := audittest.NewWorkload(23, 8, 5, 6, 1500)
	head := r.append(t, w.Envs)
	r.caughtUp(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	conn := r.store.Conn()
	tables := []string{"events", "grants", "fragments", "reads", "read_fragments", "query_facts", "deliveries"}
	for _, table := range tables {
		if err := conn.Exec(ctx, "SYSTEM STOP MERGES "+r.store.Database()+"."+table); err != nil {
			t.Fatal(err)
		}
	}
	raw := func() map[string]uint64 {
		out := map[string]uint64{}
		for _, table := range tables {
			var n uint64
			if err := conn.QueryRow(ctx, "SELECT count() FROM "+table).Scan(&n); err != nil {
				t.Fatal(err)
			}
			out[table] = n
		}
		return out
	}
	before := raw()

	// Deliver revisions 200..900 again, cut into batches differently than
	// the projector cut them.
	var msgs []eventlog.Msg
	fctx, fcancel := context.WithCancel(ctx)
	err := r.log.Follow(fctx, 200, func(m eventlog.Msg) error {
		if m.Revision <= 900 {
			msgs = append(msgs, m)
		}
		if m.Revision >= 900 {
			fcancel()
		}
		return nil
	})
	if fctx.Err() == nil {
		t.Fatalf("follow: %v", err)
	}
	for len(msgs) > 0 {
		n := min(len(msgs), 250)
		if err := r.store.WriteMsgs(ctx, msgs[:n]); err != nil {
			t.Fatal(err)
		}
		msgs = msgs[n:]
	}
	after := raw()
	if after["events"] != before["events"]+701 || after["read_fragments"] <= before["read_fragments"] {
		t.Fatalf("the redelivery did not land: rows before %v, after %v", before, after)
	}
	var distinct uint64
	if err := conn.QueryRow(ctx, "SELECT uniqExact(id) FROM events").Scan(&distinct); err != nil {
		t.Fatal(err)
	}
	if distinct != head {
		t.Fatalf("%d distinct events, want %d", distinct, head)
	}
	if rev, err := r.store.Revision(ctx); err != nil || rev != head {
		t.Fatalf("revision %d (%v) after a redelivery, want %d", rev, err, head)
	}
	audittest.Compare(t, r.inproc, r.ch, w, 3, 80, 80)
	if got := raw(); got["events"] != after["events"] {
		t.Fatalf("merges ran during the test (%d -> %d events rows); the comparison did not see the duplicates",
			after["events"], got["events"])
	}
}
