package clickhouse

import (
	"context"
	_ "embed"
	"fmt"
	"strings"
	"time"

	"github.com/ClickHouse/clickhouse-go/v2/lib/driver"

	"github.com/cmem/cmem/projectors/audit"
)

//go:embed sql/read_verdicts.sql
var readVerdictsSQL string

// edgesAt is the subquery of the targets of from's granted edges in graph
// at time @at: per edge, the last grant or revoke at or before @at in
// (time, revision) order decides, and a grant whose expiry is at or before
// @at has ended, exactly as access.AtTime. Expired-event rows are skipped:
// by time the grant's own expiry decides.
func edgesAt(graph, from string) string {
	return `(SELECT groupArray(to_id) FROM (
        SELECT to_id, argMax(granted, (time_ns, revision)) AS g, argMax(expires_ns, (time_ns, revision)) AS e
        FROM grants
        WHERE graph = '` + graph + `' AND from_id = @` + from + ` AND time_ns <= @at AND expiry = 0
        GROUP BY to_id) WHERE g = 1 AND (e = 0 OR @at < e))`
}

// visibleSQL is M(u,a,t). DISTINCT is the query-time dedupe of fragments a
// redelivery wrote twice.
var visibleSQL = `WITH ` + edgesAt(graphUserAgent, "user") + ` AS agents_at,
    ` + edgesAt(graphAgentResource, "agent") + ` AS resources_at
SELECT DISTINCT fragment_id FROM fragments
WHERE time_ns <= @at
  AND (tier = 'shared' OR user_id = @user)
  AND hasAll(agents_at, agents)
  AND hasAll(resources_at, resources)
ORDER BY fragment_id`

// Visible implements audit.Backend.
func (s *Store) Visible(ctx context.Context, user, agent string, at time.Time) ([]string, error) {
	rows, err := s.conn.Query(ctx, visibleSQL, named("user", user), named("agent", agent), named("at", at.UnixNano()))
	if err != nil {
		return nil, fmt.Errorf("%w: visible: %w", audit.ErrStoreUnavailable, err)
	}
	out := []string{}
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			_ = rows.Close()
			return nil, fmt.Errorf("%w: visible: %w", audit.ErrStoreUnavailable, err)
		}
		out = append(out, id)
	}
	if err := errorsOf(rows); err != nil {
		return nil, fmt.Errorf("%w: visible: %w", audit.ErrStoreUnavailable, err)
	}
	return out, nil
}

// Reads implements audit.Backend.
func (s *Store) Reads(ctx context.Context, fragment string) ([]audit.Read, error) {
	return s.verdicts(ctx, "fragment_id = @fragment", "1", named("fragment", fragment))
}

// Violations implements audit.Backend.
func (s *Store) Violations(ctx context.Context, w audit.Window) ([]audit.Read, error) {
	win := []any{named("from", w.From), named("to", w.To)}
	reads, err := s.verdicts(ctx, "time_ns >= @from AND time_ns < @to", "admissible = 0", win...)
	if err != nil {
		return nil, err
	}
	deliveries, err := s.deliveryVerdicts(ctx, "time_ns >= @from AND time_ns < @to", "admissible = 0", win...)
	if err != nil {
		return nil, err
	}
	reads = append(reads, deliveries...)
	audit.SortVerdicts(reads)
	return reads, nil
}

func (s *Store) verdicts(ctx context.Context, filter, having string, args ...any) ([]audit.Read, error) {
	q := "SELECT event_id, fragment_id, revision, time_ns, user_id, agent_id, graph_revision, listed_tier, reason, admissible FROM (" +
		strings.ReplaceAll(readVerdictsSQL, "READS_FILTER", filter) + ") WHERE " + having + " ORDER BY revision, fragment_id"
	rows, err := s.conn.Query(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("%w: read verdicts: %w", audit.ErrStoreUnavailable, err)
	}
	out := []audit.Read{}
	for rows.Next() {
		r := audit.Read{Kind: audit.KindRead}
		var ns int64
		var ok uint8
		if err := rows.Scan(&r.Event, &r.Fragment, &r.Revision, &ns, &r.User, &r.Agent, &r.GraphRevision, &r.Tier, &r.Reason, &ok); err != nil {
			_ = rows.Close()
			return nil, fmt.Errorf("%w: read verdicts: %w", audit.ErrStoreUnavailable, err)
		}
		r.At, r.Admissible = audit.NanoTime(ns), ok == 1
		out = append(out, r)
	}
	if err := errorsOf(rows); err != nil {
		return nil, fmt.Errorf("%w: read verdicts: %w", audit.ErrStoreUnavailable, err)
	}
	return out, nil
}

const (
	queryMetricsSQL = `SELECT query_id, user_id, at_ns, agents, resource_calls, private_fragments_read,
    shared_fragments_read, fragments_written
FROM query_metrics WHERE at_ns >= @from AND at_ns < @to ORDER BY at_ns, query_id`

	// intDiv truncates like Go's integer division, which History uses.
	binsSQL = `SELECT user_id, intDiv(time_ns, @bin) * @bin AS bin_ns,
    uniqExactIf(event_id, kind = 'submitted'),
    uniqExactIf(event_id, kind = 'resource_called'),
    uniqExactIf(event_id, kind = 'read'),
    uniqExactIf(event_id, fragment_id, kind = 'read_private'),
    uniqExactIf(event_id, fragment_id, kind = 'read_shared'),
    uniqExactIf(event_id, kind = 'written')
FROM user_activity WHERE time_ns >= @from AND time_ns < @to
GROUP BY user_id, bin_ns ORDER BY bin_ns, user_id`

	reusePairsSQL = `SELECT writer, reader, uniqExact(event_id, fragment_id), uniqExact(fragment_id)
FROM memory_reuse WHERE time_ns >= @from AND time_ns < @to
GROUP BY writer, reader ORDER BY writer, reader`

	reuseTotalsSQL = `SELECT uniqExact(event_id, fragment_id), uniqExact(fragment_id)
FROM memory_reuse WHERE time_ns >= @from AND time_ns < @to`
)

// Metrics implements audit.Backend.
func (s *Store) Metrics(ctx context.Context, w audit.Window, bin time.Duration) (audit.Metrics, error) {
	win := []any{named("from", w.From), named("to", w.To)}
	m := audit.Metrics{Queries: []audit.QueryMetrics{}, Bins: []audit.BinMetrics{}, Reuse: audit.Reuse{Pairs: []audit.ReusePair{}}}
	err := s.scan(ctx, queryMetricsSQL, win, func(r driver.Rows) error {
		var q audit.QueryMetrics
		var ns int64
		if err := r.Scan(&q.Query, &q.User, &ns, &q.Agents, &q.ResourceCalls, &q.PrivateFragmentsRead,
			&q.SharedFragmentsRead, &q.FragmentsWritten); err != nil {
			return err
		}
		q.At = audit.NanoTime(ns)
		m.Queries = append(m.Queries, q)
		return nil
	})
	if err == nil {
		err = s.scan(ctx, binsSQL, append(win, named("bin", int64(bin))), func(r driver.Rows) error {
			var b audit.BinMetrics
			var ns int64
			if err := r.Scan(&b.User, &ns, &b.Queries, &b.ResourceCalls, &b.MemoryReads, &b.PrivateFragmentsRead,
				&b.SharedFragmentsRead, &b.FragmentsWritten); err != nil {
				return err
			}
			b.Start = audit.NanoTime(ns)
			m.Bins = append(m.Bins, b)
			return nil
		})
	}
	if err == nil {
		err = s.scan(ctx, reusePairsSQL, win, func(r driver.Rows) error {
			var p audit.ReusePair
			if err := r.Scan(&p.Writer, &p.Reader, &p.Reads, &p.Fragments); err != nil {
				return err
			}
			m.Reuse.Pairs = append(m.Reuse.Pairs, p)
			return nil
		})
	}
	if err == nil {
		err = s.scan(ctx, reuseTotalsSQL, win, func(r driver.Rows) error {
			return r.Scan(&m.Reuse.CrossUserReads, &m.Reuse.FragmentsReused)
		})
	}
	if err != nil {
		return audit.Metrics{}, fmt.Errorf("%w: metrics: %w", audit.ErrStoreUnavailable, err)
	}
	return m, nil
}

func (s *Store) scan(ctx context.Context, q string, args []any, row func(driver.Rows) error) error {
	rows, err := s.conn.Query(ctx, q, args...)
	if err != nil {
		return err
	}
	for rows.Next() {
		if err := row(rows); err != nil {
			_ = rows.Close()
			return err
		}
	}
	return errorsOf(rows)
}
