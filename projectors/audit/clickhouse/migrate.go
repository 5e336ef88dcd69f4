package clickhouse

import (
	"context"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strconv"
	"strings"
	"time"

	chddl "github.com/cmem/cmem/schemas/clickhouse"
)

// Migration is one DDL file of schemas/clickhouse.
type Migration struct {
	Version    int
	Name       string
	Statements []string
}

// Migrations returns the embedded migrations in the order they apply.
func Migrations() ([]Migration, error) { return loadMigrations(chddl.FS) }

func loadMigrations(fsys fs.FS) ([]Migration, error) {
	files, err := fs.Glob(fsys, "*.sql")
	if err != nil {
		return nil, fmt.Errorf("audit: list migrations: %w", err)
	}
	var out []Migration
	seen := map[int]string{}
	for _, f := range files {
		num, _, ok := strings.Cut(path.Base(f), "_")
		v, err := strconv.Atoi(num)
		if !ok || err != nil || len(num) != 4 {
			return nil, fmt.Errorf("audit: migration %s: want NNNN_name.sql", f)
		}
		if prev, dup := seen[v]; dup {
			return nil, fmt.Errorf("audit: migrations %s and %s share version %d", prev, f, v)
		}
		seen[v] = f
		raw, err := fs.ReadFile(fsys, f)
		if err != nil {
			return nil, fmt.Errorf("audit: read migration %s: %w", f, err)
		}
		out = append(out, Migration{Version: v, Name: strings.TrimSuffix(f, ".sql"), Statements: splitStatements(string(raw))})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Version < out[j].Version })
	return out, nil
}

// splitStatements cuts a file at the semicolons that end a line, because
// the native protocol takes one statement per query. Chunks holding only
// comments are dropped.
func splitStatements(sql string) []string {
	var out []string
	var cur strings.Builder
	flush := func() {
		s := strings.TrimSpace(cur.String())
		cur.Reset()
		for _, line := range strings.Split(s, "\n") {
			if t := strings.TrimSpace(line); t != "" && !strings.HasPrefix(t, "--") {
				out = append(out, s)
				return
			}
		}
	}
	for _, line := range strings.SplitAfter(sql, "\n") {
		trimmed := strings.TrimRight(line, " \t\r\n")
		if strings.HasSuffix(trimmed, ";") && !strings.HasPrefix(strings.TrimSpace(trimmed), "--") {
			cur.WriteString(strings.TrimSuffix(trimmed, ";"))
			flush()
			continue
		}
		cur.WriteString(line)
	}
	flush()
	return out
}

// columnExists reports whether err is an ADD COLUMN statement finding its
// column already there: the step was done by a migrator that died (or
// raced) before recording the migration. 18.16 has no ADD COLUMN IF NOT
// EXISTS, so this is how such a statement is made idempotent.
func columnExists(stmt string, err error) bool {
	return strings.Contains(strings.ToUpper(stmt), "ADD COLUMN") && strings.Contains(err.Error(), "already exists")
}

const migrationsTable = `CREATE TABLE IF NOT EXISTS schema_migrations (
    version    UInt32,
    name       String,
    applied_at DateTime('UTC')
) ENGINE = ReplacingMergeTree ORDER BY version`

// migrate applies every migration not yet recorded, in order, and records
// each once it has fully applied. The statements are idempotent, so a
// projector that dies halfway, or two that race, redo a step harmlessly.
func (s *Store) migrate(ctx context.Context) error {
	if err := s.conn.Exec(ctx, migrationsTable); err != nil {
		return fmt.Errorf("audit: create schema_migrations: %w", err)
	}
	rows, err := s.conn.Query(ctx, "SELECT DISTINCT version FROM schema_migrations")
	if err != nil {
		return fmt.Errorf("audit: read schema_migrations: %w", err)
	}
	applied := map[int]bool{}
	for rows.Next() {
		var v uint32
		if err := rows.Scan(&v); err != nil {
			_ = rows.Close()
			return fmt.Errorf("audit: read schema_migrations: %w", err)
		}
		applied[int(v)] = true
	}
	if err := errorsOf(rows); err != nil {
		return fmt.Errorf("audit: read schema_migrations: %w", err)
	}
	ms, err := Migrations()
	if err != nil {
		return err
	}
	for _, m := range ms {
		if applied[m.Version] {
			continue
		}
		for i, stmt := range m.Statements {
			if err := s.conn.Exec(ctx, stmt); err != nil && !columnExists(stmt, err) {
				return fmt.Errorf("audit: migration %s statement %d: %w", m.Name, i+1, err)
			}
		}
		// A batch, not INSERT ... VALUES: over the native protocol 18.16
		// waits for a data block after any INSERT.
		record := tableData{name: "schema_migrations", names: []string{"version", "name", "applied_at"},
			columns: []any{[]uint32{uint32(m.Version)}, []string{m.Name}, []time.Time{time.Now().UTC().Truncate(time.Second)}}, rows: 1}
		if err := s.insert(ctx, record); err != nil {
			return fmt.Errorf("audit: record migration %s: %w", m.Name, err)
		}
		s.logger.Info("clickhouse migration applied", "migration", m.Name, "database", s.db)
	}
	return nil
}
