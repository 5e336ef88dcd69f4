package app

import (
	"context"
	"fmt"
	"time"

	"github.com/cmem/cmem/access"
	"github.com/cmem/cmem/events"
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
		return AccessAnswer{}, fmt.Errorf("%w: %s may read only its own access", ErrForbidden, by.ID)
	}
	if q.Time != nil && q.Revision != nil {
		return AccessAnswer{}, fmt.Errorf("%w: give at most one of at and revision", ErrInvalid)
	}
	if err := events.CheckID(user); err != nil {
		return AccessAnswer{}, fmt.Errorf("%w: %w", ErrInvalid, err)
	}
	minRev := q.MinRevision
	if q.Revision != nil {
		head, err := a.log.Head(ctx, "")
		if err != nil {
			return AccessAnswer{}, fmt.Errorf("%w: %w", ErrUnavailable, err)
		}
		if *q.Revision > head {
			return AccessAnswer{}, fmt.Errorf("%w: revision %d is beyond the log head %d", ErrInvalid, *q.Revision, head)
		}
		minRev = max(minRev, *q.Revision)
	}
	if err := a.fence(ctx, events.GrantsSubjectPrefix, minRev); err != nil {
		return AccessAnswer{}, err
	}
	if _, ok := a.view.User(user); !ok {
		if err := a.mustExist(ctx, "users/", user); err != nil {
			return AccessAnswer{}, err
		}
	}
	p, _ := a.now()
	rev := a.view.Revision()
	switch {
	case q.Revision != nil:
		rev = *q.Revision
		p = access.AtRevision(rev)
	case q.Time != nil:
		p = access.AtTime(*q.Time)
	}
	return AccessAnswer{User: user, Revision: rev, Agents: a.view.Access(user, p)}, nil
}
