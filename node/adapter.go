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
