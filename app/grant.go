package app

import (
	"context"
	"fmt"
	"time"

	"github.com/cmem/cmem/domain"
	"github.com/cmem/cmem/events"
)

// Edge names one edge of one of the two access graphs.
type Edge struct {
	// UserAgent selects G_UA (From is a user, To an agent); otherwise G_AR
	// (From is an agent, To a resource).
	UserAgent bool
	From, To  string
}

// Term is how long a grant lasts: at most one of ExpiresAt and TTL; neither
// grants the edge until it is revoked.
type Term struct {
	ExpiresAt *time.Time
	TTL       *time.Duration
}

// SetGrant is an admin granting (granted=true) or revoking an edge. Both
// ends must be registered. Every call is recorded, even one that changes
// nothing, because the audit trail is of admin actions, not of diffs.
func (a *App) SetGrant(ctx context.Context, by domain.Identity, e Edge, granted bool) (uint64, error) {
	if !granted {
		return a.setGrant(ctx, by, e, false, nil, time.Time{})
	}
	return a.Grant(ctx, by, e, Term{})
}

// Grant is an admin granting an edge for term. A grant replaces the term of
// the edge's previous grant: a grant with an expiry renews or shortens it,
// one without makes the edge permanent. The expiry must lie after now (this
// process's clock, which is also the event's time).
func (a *App) Grant(ctx context.Context, by domain.Identity, e Edge, term Term) (uint64, error) {
	now := a.clockNow()
	var expires *time.Time
	switch {
	case term.ExpiresAt != nil && term.TTL != nil:
		return 0, fmt.Errorf("%w: give at most one of expires_at and ttl", domain.ErrInvalid)
	case term.TTL != nil && *term.TTL <= 0:
		return 0, fmt.Errorf("%w: ttl must be positive, got %s", domain.ErrInvalid, *term.TTL)
	case term.TTL != nil:
		t := now.Add(*term.TTL).UTC()
		expires = &t
	case term.ExpiresAt != nil && !term.ExpiresAt.After(now):
		return 0, fmt.Errorf("%w: expires_at %s is not in the future (now is %s)", domain.ErrInvalid,
			term.ExpiresAt.UTC().Format(time.RFC3339Nano), now.UTC().Format(time.RFC3339Nano))
	case term.ExpiresAt != nil:
		t := term.ExpiresAt.UTC()
		expires = &t
	}
	return a.setGrant(ctx, by, e, true, expires, now)
}

func (a *App) setGrant(ctx context.Context, by domain.Identity, e Edge, granted bool, expires *time.Time, at time.Time) (uint64, error) {
	if err := requireAdmin(by); err != nil {
		return 0, err
	}
	fromKind, toKind := "agents/", "resources/"
	if e.UserAgent {
		fromKind, toKind = "users/", "agents/"
	}
	if err := a.requireRegistered(ctx, fromKind, e.From); err != nil {
		return 0, err
	}
	if err := a.requireRegistered(ctx, toKind, e.To); err != nil {
		return 0, err
	}
	var p events.Payload
	switch {
	case e.UserAgent && granted:
		p = &events.UserAgentGranted{User: e.From, Agent: e.To, ExpiresAt: expires}
	case e.UserAgent:
		p = &events.UserAgentRevoked{User: e.From, Agent: e.To}
	case granted:
		p = &events.AgentResourceGranted{Agent: e.From, Resource: e.To, ExpiresAt: expires}
	default:
		p = &events.AgentResourceRevoked{Agent: e.From, Resource: e.To}
	}
	// The event's time is the clock the expiry was checked against, so a
	// grant is never stored with an expiry before its own time.
	return a.appendAt(ctx, by, p, "", at)
}
