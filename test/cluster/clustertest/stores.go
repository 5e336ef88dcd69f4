package clustertest

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/ClickHouse/clickhouse-go/v2"

	"github.com/cmem/cmem/embedding/semantic"
	"github.com/cmem/cmem/vectors/weaviate"
)

// catchUp bounds how long the checks wait for an external view to reach
// the log head after the load stopped: only so that a stall fails CI.
const catchUp = 2 * time.Minute

// CheckAuditTrail asserts that the ClickHouse audit trail at dsn holds the
// log Check last read exactly: once it has caught up (waiting up to
// catchUp), every event id at the revision the log has it, none missing,
// none counted twice (the events table deduplicates by id: FINAL).
func (l *Load) CheckAuditTrail(t testing.TB, dsn string) {
	t.Helper()
	log := l.Log()
	opts, err := clickhouse.ParseDSN(dsn)
	if err != nil {
		t.Fatal(err)
	}
	conn, err := clickhouse.Open(opts)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = conn.Close() }()
	ctx, cancel := context.WithTimeout(context.Background(), catchUp)
	defer cancel()
	// Events appended after Check read the log (a query's late lifecycle
	// event) are not counted: the comparison is up to len(log).
	var rows, ids, top uint64
	begin := time.Now()
	for {
		err = conn.QueryRow(ctx, "SELECT countIf(revision <= $1), uniqExactIf(id, revision <= $1), max(revision) FROM events FINAL",
			len(log)).Scan(&rows, &ids, &top)
		if err == nil && top >= uint64(len(log)) {
			break
		}
		select {
		case <-ctx.Done():
			t.Fatalf("the audit trail did not reach revision %d within %s: at %d (%v)", len(log), catchUp, top, err)
		case <-time.After(250 * time.Millisecond):
		}
	}
	var raw uint64
	_ = conn.QueryRow(ctx, "SELECT count() FROM events WHERE revision <= $1", len(log)).Scan(&raw)
	// One process at a time writes the tables (the holder of their lease):
	// raw rows above one per event come only from a batch written again
	// (a holder killed after its insert, before its answer), which
	// ClickHouse merges by event id.
	t.Logf("the audit trail was at revision %d or later %s after the log was read; %d raw rows for %d events",
		len(log), time.Since(begin).Round(time.Millisecond), raw, len(log))
	if top > uint64(len(log)) {
		var types []string
		if err := conn.Select(ctx, &types, "SELECT type FROM events FINAL WHERE revision > $1 ORDER BY revision", len(log)); err == nil {
			t.Logf("the audit trail is at revision %d: events appended after the log was read: %v", top, types)
		}
	}
	if rows != uint64(len(log)) || ids != uint64(len(log)) {
		t.Errorf("the audit trail holds %d rows of %d distinct event ids; the log holds %d events", rows, ids, len(log))
	}
	r, err := conn.Query(ctx, "SELECT id, revision FROM events FINAL WHERE revision <= $1", len(log))
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = r.Close() }()
	stored := map[string]uint64{}
	for r.Next() {
		var id string
		var rev uint64
		if err := r.Scan(&id, &rev); err != nil {
			t.Fatal(err)
		}
		stored[id] = rev
	}
	if err := r.Err(); err != nil {
		t.Fatal(err)
	}
	for _, e := range log {
		if stored[e.ID] != e.Revision {
			t.Errorf("event %s (%s) at revision %d: the audit trail has it at %d (0: missing)", e.ID, e.Type, e.Revision, stored[e.ID])
		}
	}
}

// CheckVectorView asserts that the Weaviate class every process projects
// into holds the log Check last read: once its checkpoint reaches the last
// fragment event (waiting up to catchUp), one object per fragment written,
// each acknowledged fragment at the revision it was acknowledged with.
func (l *Load) CheckVectorView(t testing.TB, url, grpcAddr, class string) {
	t.Helper()
	log := l.Log()
	written := map[string]uint64{} // fragment id → revision
	var last uint64
	for _, e := range log {
		if e.Type == "cmem.fragment.written" {
			written[fragmentID(e.Subject)] = e.Revision
			last = e.Revision
		}
	}
	emb, err := semantic.New()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), catchUp)
	defer cancel()
	s, err := weaviate.Open(ctx, weaviate.Config{URL: url, GRPCAddr: grpcAddr, Class: class, Dims: emb.Dims(),
		Shared: true}) // the cluster writes this class under its lease: this process never does
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = s.Close() }()
	var cp uint64
	begin := time.Now()
	for {
		cp, _, err = s.Checkpoint(ctx)
		if err == nil && cp >= last {
			break
		}
		select {
		case <-ctx.Done():
			t.Fatalf("the vector view's checkpoint did not reach revision %d within %s: at %d (%v)", last, catchUp, cp, err)
		case <-time.After(250 * time.Millisecond):
		}
	}
	t.Logf("the vector view's checkpoint was at revision %d %s after the log was read", cp, time.Since(begin).Round(time.Millisecond))
	n, err := s.Count(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if n != len(written) {
		t.Errorf("the vector view holds %d objects; the log wrote %d fragments", n, len(written))
	}
	var ids []string
	for _, a := range l.AckedCommands() {
		if a.Type == "cmem.fragment.written" {
			ids = append(ids, fragmentID(a.Subject))
		}
	}
	got, err := s.Get(ctx, ids)
	if err != nil {
		t.Fatal(err)
	}
	found := map[string]uint64{}
	for _, f := range got {
		found[f.ID] = f.Revision
	}
	missing := 0
	for _, id := range ids {
		if found[id] != written[id] {
			missing++
			if missing <= 5 {
				t.Errorf("acknowledged fragment %s (revision %d): the vector view has it at %d (0: missing)", id, written[id], found[id])
			}
		}
	}
	if missing > 0 || len(got) != len(ids) {
		t.Errorf("%d of %d acknowledged fragments missing or wrong in the vector view; %d objects returned for them", missing, len(ids), len(got))
	}
	if cp != last {
		t.Errorf("the vector view's checkpoint is %d, the last fragment event %d", cp, last)
	}
}

// fragmentID is the id in a fragment's subject, fragments/<user>/<id>.
func fragmentID(subject string) string { return subject[strings.LastIndex(subject, "/")+1:] }
