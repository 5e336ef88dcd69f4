package app

import (
	"context"
	"fmt"
	"time"

	"github.com/cmem/cmem/domain"
	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/projectors/access"
)

// AsOf says which state of the graphs a question is about. At most one of
// Time and Revision is set; neither means now.
type AsOf struct {
	Time        *time.Time
	Revision    *uint64
	MinRevision uint64
}

// asOfPoint checks q, fences the access projection on the grants (and on
// q's revision) and returns the revision the answer is read at with its
// Point: the one asked for, or the projection's when asking by time or for
// now.
func (a *App) asOfPoint(ctx context.Context, q AsOf) (uint64, access.Point, error) {
	if q.Time != nil && q.Revision != nil {
		return 0, access.Point{}, fmt.Errorf("%w: give at most one of at and revision", domain.ErrInvalid)
	}
	minRev := q.MinRevision
	if q.Revision != nil {
		head, err := a.log.Head(ctx, "")
		if err != nil {
			return 0, access.Point{}, fmt.Errorf("%w: %w", domain.ErrUnavailable, err)
		}
		if *q.Revision > head {
			return 0, access.Point{}, fmt.Errorf("%w: revision %d is beyond the log head %d", domain.ErrInvalid, *q.Revision, head)
		}
		minRev = max(minRev, *q.Revision)
	}
	if err := a.fence(ctx, events.GrantsSubjectPrefix, minRev); err != nil {
		return 0, access.Point{}, err
	}
	rev := a.view.Revision()
	switch {
	case q.Revision != nil:
		return *q.Revision, access.AtRevision(*q.Revision), nil
	case q.Time != nil:
		return rev, access.AtTime(*q.Time), nil
	}
	// Now is the fenced revision judged at this process's clock: a grant
	// past its expiry is absent even before its expired event is logged.
	return rev, access.Now(rev, a.clockNow()), nil
}
