package node

import (
	"context"
	"errors"
	"fmt"

	"github.com/cmem/cmem/app"
	"github.com/cmem/cmem/domain"
	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/events/eventlog"
	"github.com/cmem/cmem/shred"
)

// logAdapter gives the use cases the log in their own terms.
type logAdapter struct{ l *eventlog.Log }

func (a logAdapter) Append(ctx context.Context, e events.Envelope, exclusive bool) (uint64, error) {
	var opts []eventlog.AppendOption
	if exclusive {
		opts = append(opts, eventlog.ExpectNew())
	}
	rev, err := a.l.Append(ctx, e, opts...)
	return rev, appendError(e.Subject, err)
}

func (a logAdapter) AppendAll(ctx context.Context, es []app.Staged) ([]uint64, error) {
	entries := make([]eventlog.Entry, len(es))
	for i, s := range es {
		entries[i] = eventlog.Entry{Event: s.Event, New: s.Exclusive}
	}
	revs, err := a.l.AppendAtomic(ctx, entries)
	if errors.Is(err, eventlog.ErrSubjectTaken) {
		return nil, fmt.Errorf("%w: %w (registered since the batch was checked)", domain.ErrConflict, err)
	}
	return revs, appendError("", err)
}

// appendError maps the log's errors to the use cases' kinds.
func appendError(subject string, err error) error {
	switch {
	case errors.Is(err, eventlog.ErrSubjectTaken):
		return fmt.Errorf("%w: %s is already registered", domain.ErrConflict, subject)
	case errors.Is(err, eventlog.ErrTooLarge):
		return fmt.Errorf("%w: %w", domain.ErrTooLarge, err)
	case errors.Is(err, events.ErrInvalid):
		// The request made an event its schema refuses (e.g. repeated ids
		// in derived_from): the caller's mistake, with the schema's reason.
		return fmt.Errorf("%w: %w", domain.ErrInvalid, err)
	case errors.Is(err, shred.ErrErased):
		// Content for a user erased since the request began: nothing of it
		// may be written, and the user no longer exists to write for.
		return fmt.Errorf("%w: %w", domain.ErrNotFound, err)
	}
	return err
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
