package node

import (
	"context"
	"fmt"
	"time"

	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/events/eventlog"
	"github.com/cmem/cmem/projectors/query"
)

// queryArchive rebuilds a query that left the in-memory projection from
// its events, read from the log by subject (queries/<user>/<id>).
type queryArchive struct {
	log       *eventlog.Log
	validator *events.Validator
	timeout   time.Duration
}

func newQueryArchive(l *eventlog.Log, timeout time.Duration) (*queryArchive, error) {
	v, err := events.DefaultValidator()
	if err != nil {
		return nil, err
	}
	return &queryArchive{log: l, validator: v, timeout: timeout}, nil
}

// Load implements app.QueryArchive.
func (a *queryArchive) Load(ctx context.Context, id string) (query.Query, bool, error) {
	ctx, cancel := context.WithTimeout(ctx, a.timeout)
	defer cancel()
	msgs, err := a.log.Read(ctx, "queries/*/"+id)
	if err != nil {
		return query.Query{}, false, err
	}
	recs := make([]events.Record, 0, len(msgs))
	for _, m := range msgs {
		// As the projection runner does: open sealed content first (an
		// erased user's text comes back as events.Erased, never in clear),
		// then check the data against its schema.
		env, err := a.validator.ParseEnvelope(m.Data)
		if err == nil {
			env, err = a.log.Open(ctx, env)
		}
		if err == nil {
			err = a.validator.CheckData(env)
		}
		if err != nil {
			return query.Query{}, false, fmt.Errorf("node: query %s at revision %d: %w", id, m.Revision, err)
		}
		recs = append(recs, events.Record{Envelope: env, Revision: m.Revision})
	}
	q, ok := query.Rebuild(id, recs)
	return q, ok, nil
}
