package node

import (
	"context"
	"errors"
	"fmt"

	"github.com/cmem/cmem/app"
	"github.com/cmem/cmem/eventlog"
	"github.com/cmem/cmem/events"
)

// logAdapter gives the use cases the log in their own terms.
type logAdapter struct{ l *eventlog.Log }

func (a logAdapter) Append(ctx context.Context, e events.Envelope, exclusive bool) (uint64, error) {
	var opts []eventlog.AppendOption
	if exclusive {
		opts = append(opts, eventlog.ExpectNew())
	}
	rev, err := a.l.Append(ctx, e, opts...)
	switch {
	case errors.Is(err, eventlog.ErrSubjectTaken):
		return 0, fmt.Errorf("%w: %s is already registered", app.ErrConflict, e.Subject)
	case errors.Is(err, eventlog.ErrTooLarge):
		return 0, fmt.Errorf("%w: %w", app.ErrTooLarge, err)
	case errors.Is(err, events.ErrInvalid):
		// The request made an event its schema refuses (e.g. repeated ids
		// in derived_from): the caller's mistake, with the schema's reason.
		return 0, fmt.Errorf("%w: %w", app.ErrInvalid, err)
	}
	return rev, err
}

func (a logAdapter) Head(ctx context.Context, filter string) (uint64, error) {
	return a.l.Head(ctx, filter)
}

// gatedSource calls gate before each event reaches the projections
// (Config.ProjectionGate).
type gatedSource struct {
	*eventlog.Log
	gate func(context.Context, eventlog.Msg) error
}

func (g gatedSource) Follow(ctx context.Context, from uint64, fn func(eventlog.Msg) error) error {
	return g.Log.Follow(ctx, from, func(m eventlog.Msg) error {
		if err := g.gate(ctx, m); err != nil {
			return err
		}
		return fn(m)
	})
}
