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

// AccessAnswer is A(u,·) with R(a,·) for each agent.
type AccessAnswer struct {
	User     string               `json:"user"`
	Revision uint64               `json:"revision"`
	Agents   []access.AgentAccess `json:"agents"`
}

// AccessOf answers "what could user use" at q. Admins may ask about anyone,
// a user only about itself. The answer's Revision is the log revision the
// state was read at: the one asked for, or the projection's when asking by
// time or for now. Now is the fenced revision judged at this process's
// clock, so a grant past its expiry is absent even before its expired event
// is in the log; by revision, only the expired events in the prefix count;
// by time, a grant's expiry instant ends it. Each edge shows its expiry
// (AgentAccess.ExpiresAt, AgentAccess.ResourceExpiry).
func (a *App) AccessOf(ctx context.Context, by Identity, user string, q AsOf) (AccessAnswer, error) {
	if !by.Admin && by.ID != user {
		return AccessAnswer{}, fmt.Errorf("%w: %s may read only its own access", domain.ErrForbidden, by.ID)
	}
	if err := events.CheckID(user); err != nil {
		return AccessAnswer{}, fmt.Errorf("%w: %w", domain.ErrInvalid, err)
	}
	rev, p, err := a.asOfPoint(ctx, q)
	if err != nil {
		return AccessAnswer{}, err
	}
	if _, ok := a.view.User(user); !ok {
		if err := a.requireRegistered(ctx, "users/", user); err != nil {
			return AccessAnswer{}, err
		}
	}
	return AccessAnswer{User: user, Revision: rev, Agents: a.view.Access(user, p)}, nil
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
