package app

import (
	"context"
	"fmt"

	"github.com/cmem/cmem/domain"
	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/projectors/access"
)

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
func (a *App) AccessOf(ctx context.Context, by domain.Identity, user string, q AsOf) (AccessAnswer, error) {
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
