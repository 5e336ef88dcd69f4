package app

import (
	"context"
	"fmt"

	"github.com/cmem/cmem/domain"
	"github.com/cmem/cmem/events"
)

// RegisterUser is an admin registering user id with role. It returns the
// user's token, which exists only in this answer: the log keeps its hash.
func (a *App) RegisterUser(ctx context.Context, by domain.Identity, id, role string) (token string, rev uint64, err error) {
	if err := requireAdmin(by); err != nil {
		return "", 0, err
	}
	if err := events.CheckID(id); err != nil {
		return "", 0, fmt.Errorf("%w: %w", domain.ErrInvalid, err)
	}
	if id == AdminID {
		return "", 0, fmt.Errorf("%w: user id %q is reserved", domain.ErrConflict, id)
	}
	if role == "" {
		role = events.RoleUser
	}
	if role != events.RoleUser && role != events.RoleAdmin {
		return "", 0, fmt.Errorf("%w: role must be %q or %q", domain.ErrInvalid, events.RoleUser, events.RoleAdmin)
	}
	if token, err = NewToken(); err != nil {
		return "", 0, err
	}
	rev, err = a.append(ctx, by, &events.UserRegistered{ID: id, Role: role, TokenSHA256: TokenSum(token)}, true)
	if err != nil {
		return "", 0, fmt.Errorf("register user %s: %w", id, err)
	}
	return token, rev, nil
}
