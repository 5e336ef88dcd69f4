package clickhouse

import (
	"context"
	_ "embed"
	"fmt"
	"strings"

	"github.com/cmem/cmem/projectors/access"
	"github.com/cmem/cmem/projectors/audit"
)

//go:embed sql/delivery_verdicts.sql
var deliveryVerdictsSQL string

// Deliveries implements audit.Backend.
func (s *Store) Deliveries(ctx context.Context, query string) ([]audit.Read, error) {
	return s.deliveryVerdicts(ctx, "query_id = @query", "1", named("query", query))
}

func (s *Store) deliveryVerdicts(ctx context.Context, filter, having string, args ...any) ([]audit.Read, error) {
	q := "SELECT event_id, revision, time_ns, user_id, query_id, graph_revision, agents, resources, fragments, " +
		"missing_agent, missing_resource, reason, admissible FROM (" +
		strings.ReplaceAll(deliveryVerdictsSQL, "DELIVERIES_FILTER", filter) + ") WHERE " + having + " ORDER BY revision"
	rows, err := s.conn.Query(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("%w: delivery verdicts: %w", audit.ErrStoreUnavailable, err)
	}
	out := []audit.Read{}
	for rows.Next() {
		r := audit.Read{Kind: audit.KindDelivery}
		var ns int64
		var ok uint8
		var agents, resources, fragments []string
		var missingAgent, missingResource string
		if err := rows.Scan(&r.Event, &r.Revision, &ns, &r.User, &r.Query, &r.GraphRevision, &agents, &resources,
			&fragments, &missingAgent, &missingResource, &r.Reason, &ok); err != nil {
			_ = rows.Close()
			return nil, fmt.Errorf("%w: delivery verdicts: %w", audit.ErrStoreUnavailable, err)
		}
		r.At, r.Admissible, r.Label = audit.NanoTime(ns), ok == 1, audit.DeliveryLabel(agents, resources, fragments)
		if r.Reason == audit.ReasonLabel {
			// The words are access.Verdict's, so both backends say the same.
			r.Detail = access.Verdict{Agent: missingAgent, Resource: missingResource}.Reason(r.User)
		}
		out = append(out, r)
	}
	if err := errorsOf(rows); err != nil {
		return nil, fmt.Errorf("%w: delivery verdicts: %w", audit.ErrStoreUnavailable, err)
	}
	return out, nil
}
