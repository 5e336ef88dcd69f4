package clickhouse

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	chgo "github.com/ClickHouse/clickhouse-go/v2"
	"github.com/ClickHouse/clickhouse-go/v2/lib/driver"

	"github.com/cmem/cmem/projectors/audit"
)

// Store is the audit trail in ClickHouse. The Projector writes to it; as
// an audit.Backend it answers audit questions. It is safe for concurrent
// use, and opening it does no I/O: a server that is down at start is only
// noticed, and retried, by whoever uses it.
type Store struct {
	opts   *chgo.Options
	db     string
	conn   driver.Conn
	logger *slog.Logger

	mu      sync.Mutex
	ensured bool
}

var _ audit.Backend = (*Store)(nil)

// OpenStore returns a Store for the database named by dsn.
func OpenStore(dsn string, logger *slog.Logger) (*Store, error) {
	opts, err := parseDSN(dsn)
	if err != nil {
		return nil, err
	}
	if logger == nil {
		logger = slog.Default()
	}
	opts.ClientInfo.Products = append(opts.ClientInfo.Products, struct{ Name, Version string }{"cmem-audit", "1"})
	if opts.DialTimeout == 0 {
		opts.DialTimeout = 5 * time.Second
	}
	conn, err := chgo.Open(opts)
	if err != nil {
		return nil, fmt.Errorf("audit: open clickhouse: %w", err)
	}
	return &Store{opts: opts, db: opts.Auth.Database, conn: conn, logger: logger}, nil
}

// Database is the database the store writes to.
func (s *Store) Database() string { return s.db }

// Conn is the driver connection, for tests and benchmarks that look at the
// tables directly.
func (s *Store) Conn() driver.Conn { return s.conn }

// Close releases the connections.
func (s *Store) Close() error { return s.conn.Close() }

// Ensure creates the database if it is missing and applies the migrations.
// It does the work once per Store; later calls are free.
func (s *Store) Ensure(ctx context.Context) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ensured {
		return nil
	}
	if err := s.createDatabase(ctx); err != nil {
		return err
	}
	if err := s.migrate(ctx); err != nil {
		return err
	}
	s.ensured = true
	return nil
}

// createDatabase connects without a database (a missing one fails the
// handshake) to create it.
func (s *Store) createDatabase(ctx context.Context) error {
	o := *s.opts
	o.Auth.Database = ""
	o.MaxOpenConns, o.MaxIdleConns = 1, 1
	conn, err := chgo.Open(&o)
	if err != nil {
		return fmt.Errorf("audit: open clickhouse: %w", err)
	}
	defer func() { _ = conn.Close() }()
	// The name is checked against an identifier pattern by parseDSN.
	if err := conn.Exec(ctx, "CREATE DATABASE IF NOT EXISTS "+s.db); err != nil {
		return fmt.Errorf("audit: create database %s: %w", s.db, err)
	}
	return nil
}

// Revision is the highest revision stored: every event at or below it is
// in every table (see write), so it is where the projector resumes.
func (s *Store) Revision(ctx context.Context) (uint64, error) {
	var rev uint64
	if err := s.conn.QueryRow(ctx, "SELECT max(revision) FROM events").Scan(&rev); err != nil {
		return 0, fmt.Errorf("%w: max revision: %w", audit.ErrStoreUnavailable, err)
	}
	return rev, nil
}

// write stores b. The typed tables go first and the raw events last, cut
// into runs of one partition each (one insert of one partition is one
// part, written atomically): if a flush fails halfway, the events table
// holds a prefix of the batch whose typed rows are all written, so resuming
// after max(events.revision) loses nothing. Typed rows written twice that
// way are duplicates of the same event id, which every query ignores.
//
// The typed tables are independent of each other, so they are inserted
// concurrently, each on its own connection: the round trips overlap and
// ClickHouse works on several parts at once. The events wait for all of
// them.
func (s *Store) write(ctx context.Context, b *batch) error {
	errs := make([]error, len(typedTableList))
	cols := b.scratches()
	var wg sync.WaitGroup
	for i, t := range typedTableList {
		if t.rows(b) == 0 {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = s.insert(ctx, t.build(b, &cols[i]))
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return err
	}
	sc := &cols[len(typedTableList)]
	for _, run := range partitionRuns(b.events) {
		sc.reset() // the previous run's insert is sent
		if err := s.insert(ctx, eventsTable(run, sc)); err != nil {
			return err
		}
	}
	return nil
}

func (s *Store) insert(ctx context.Context, t tableData) error {
	if t.rows == 0 {
		return nil
	}
	// An explicit column list: ClickHouse 18.16 rejects batches without one.
	bt, err := s.conn.PrepareBatch(ctx, t.insert())
	if err != nil {
		return fmt.Errorf("%w: prepare insert into %s: %w", audit.ErrStoreUnavailable, t.name, err)
	}
	for i, col := range t.columns {
		if err := bt.Column(i).Append(col); err != nil {
			_ = bt.Abort()
			return fmt.Errorf("audit: insert into %s column %s: %w", t.name, t.names[i], err)
		}
	}
	if err := bt.Send(); err != nil {
		return fmt.Errorf("%w: insert into %s: %w", audit.ErrStoreUnavailable, t.name, err)
	}
	return nil
}

func named(name string, v any) driver.NamedValue { return chgo.Named(name, v) }

// errorsOf closes rows and returns the first error of the iteration.
func errorsOf(rows driver.Rows) error {
	err := rows.Err()
	if cerr := rows.Close(); err == nil {
		err = cerr
	}
	return err
}
