package app

import (
	"context"
	"fmt"

	"github.com/cmem/cmem/events"
)

// Edge names one edge of one of the two access graphs.
type Edge struct {
	// UserAgent selects G_UA (From is a user, To an agent); otherwise G_AR
	// (From is an agent, To a resource).
	UserAgent bool
	From, To  string
}

// SetGrant is an admin granting (granted=true) or revoking an edge. Both
// ends must be registered. Every call is recorded, even one that changes
// nothing, because the audit trail is of admin actions, not of diffs.
func (a *App) SetGrant(ctx context.Context, by Identity, e Edge, granted bool) (uint64, error) {
	if err := requireAdmin(by); err != nil {
		return 0, err
	}
	fromKind, toKind := "agents/", "resources/"
	if e.UserAgent {
		fromKind, toKind = "users/", "agents/"
	}
	if err := a.checkedExists(ctx, fromKind, e.From); err != nil {
		return 0, err
	}
	if err := a.checkedExists(ctx, toKind, e.To); err != nil {
		return 0, err
	}
	var p events.Payload
	switch {
	case e.UserAgent && granted:
		p = &events.UserAgentGranted{User: e.From, Agent: e.To}
	case e.UserAgent:
		p = &events.UserAgentRevoked{User: e.From, Agent: e.To}
	case granted:
		p = &events.AgentResourceGranted{Agent: e.From, Resource: e.To}
	default:
		p = &events.AgentResourceRevoked{Agent: e.From, Resource: e.To}
	}
	return a.append(ctx, by, p, false)
}

// mustExist asks the log, not a projection, whether kind/id was registered:
// an entity registered a moment ago through another gateway exists.
func (a *App) mustExist(ctx context.Context, kind, id string) error {
	rev, err := a.log.Head(ctx, kind+id)
	if err != nil {
		return fmt.Errorf("%w: %w", ErrUnavailable, err)
	}
	if rev == 0 {
		return fmt.Errorf("%w: %s%s", ErrNotFound, kind, id)
	}
	return nil
}
