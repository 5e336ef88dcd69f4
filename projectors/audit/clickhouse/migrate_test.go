package clickhouse_test

import (
	"context"
	"log/slog"
	"testing"
	"time"

	"github.com/cmem/cmem/projectors/audit/clickhouse"
	"github.com/cmem/cmem/projectors/audit/clickhouse/clickhousetest"
)

// TestMigrationsApplyOnce: the database is created, every migration runs
// on this server's release and is recorded once, however often stores
// ensure the schema.
func TestMigrationsApplyOnce(t *testing.T) {
	srv := clickhousetest.Shared(t)
	dsn := srv.DSN(clickhousetest.Database("migrate"))
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	var stores []*clickhouse.Store
	for range 2 {
		s, err := clickhouse.OpenStore(dsn, slog.New(slog.DiscardHandler))
		if err != nil {
			t.Fatal(err)
		}
		defer func() { _ = s.Close() }()
		for range 2 {
			if err := s.Ensure(ctx); err != nil {
				t.Fatal(err)
			}
		}
		stores = append(stores, s)
	}
	ms, err := clickhouse.Migrations()
	if err != nil {
		t.Fatal(err)
	}
	conn := stores[0].Conn()
	// A migrator that died after its statements but before recording them:
	// every statement runs again (ADD COLUMN finds its column) and records.
	if err := conn.Exec(ctx, "TRUNCATE TABLE schema_migrations"); err != nil {
		t.Fatal(err)
	}
	redo, err := clickhouse.OpenStore(dsn, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = redo.Close() }()
	if err := redo.Ensure(ctx); err != nil {
		t.Fatalf("redoing the migrations: %v", err)
	}
	var recorded, versions uint64
	if err := conn.QueryRow(ctx, "SELECT count(), uniqExact(version) FROM schema_migrations").Scan(&recorded, &versions); err != nil {
		t.Fatal(err)
	}
	if recorded != uint64(len(ms)) || versions != uint64(len(ms)) {
		t.Fatalf("schema_migrations holds %d rows of %d versions, want %d once each", recorded, versions, len(ms))
	}
	var objects uint64
	err = conn.QueryRow(ctx, `SELECT count() FROM system.tables WHERE database = currentDatabase() AND name IN
        ('events', 'grants', 'fragments', 'reads', 'read_fragments', 'query_facts',
         'query_metrics', 'user_activity', 'memory_reuse', 'read_verdicts', 'deliveries', 'delivery_verdicts')`).Scan(&objects)
	if err != nil || objects != 12 {
		t.Fatalf("%d of 12 tables and views exist (%v)", objects, err)
	}
	if rev, err := stores[1].Revision(ctx); err != nil || rev != 0 {
		t.Fatalf("revision of an empty trail: %d, %v", rev, err)
	}
}
