package app

import (
	"context"
	"fmt"

	"github.com/cmem/cmem/domain"
	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/projectors/access"
)

// RotateToken is an admin or the user itself replacing the user's token.
// The new token exists only in this answer; the old one is refused from the
// returned revision on, by every gateway (authentication fences on users/).
func (a *App) RotateToken(ctx context.Context, by domain.Identity, user string) (token string, rev uint64, err error) {
	if err := a.lifecycleTarget(ctx, by, user, true); err != nil {
		return "", 0, err
	}
	if token, err = NewToken(); err != nil {
		return "", 0, err
	}
	rev, err = a.append(ctx, by, &events.UserTokenRotated{User: user, TokenSHA256: TokenSum(token)}, false)
	if err != nil {
		return "", 0, fmt.Errorf("rotate token of %s: %w", user, err)
	}
	return token, rev, nil
}

// RevokeToken is an admin or the user itself withdrawing the user's token;
// a later rotation by an admin issues a new one.
func (a *App) RevokeToken(ctx context.Context, by domain.Identity, user string) (uint64, error) {
	if err := a.lifecycleTarget(ctx, by, user, true); err != nil {
		return 0, err
	}
	return a.append(ctx, by, &events.UserTokenRevoked{User: user}, false)
}

// SetActive is an admin deactivating (active=false) or reactivating a
// user. A deactivated user's token is refused; its memory and grants stay.
func (a *App) SetActive(ctx context.Context, by domain.Identity, user string, active bool) (uint64, error) {
	if err := a.lifecycleTarget(ctx, by, user, false); err != nil {
		return 0, err
	}
	if active {
		return a.append(ctx, by, &events.UserReactivated{User: user}, false)
	}
	return a.append(ctx, by, &events.UserDeactivated{User: user}, false)
}

// lifecycleTarget checks that by may change user (an admin; or, when self
// is allowed, the user itself) and that user exists and is not erased.
func (a *App) lifecycleTarget(ctx context.Context, by domain.Identity, user string, self bool) error {
	if !by.Admin && (!self || by.ID != user) {
		return fmt.Errorf("%w: only an admin%s may change user %s", domain.ErrForbidden, map[bool]string{true: " or the user itself"}[self], user)
	}
	if err := events.CheckID(user); err != nil {
		return fmt.Errorf("%w: %w", domain.ErrInvalid, err)
	}
	if err := a.fence(ctx, events.UsersSubjectPrefix+user, 0); err != nil {
		return err
	}
	u, ok := a.view.User(user)
	if !ok {
		return fmt.Errorf("%w: user %s", domain.ErrNotFound, user)
	}
	if u.Status == access.StatusErased {
		return fmt.Errorf("%w: user %s was erased", domain.ErrNotFound, user)
	}
	return nil
}

// BusIdentity is the identity of a query published on user's bus subject.
// The bus authenticated the connection when it was opened; this checks
// that the user is still active as of every acknowledged lifecycle event,
// so a deactivated or erased user's open connection asks nothing more.
func (a *App) BusIdentity(ctx context.Context, user string) (domain.Identity, error) {
	if err := a.fence(ctx, events.UsersSubjectPrefix, 0); err != nil {
		return domain.Identity{}, err
	}
	u, ok := a.view.User(user)
	if !ok {
		return domain.Identity{}, fmt.Errorf("%w: unknown user %s", domain.ErrUnauthenticated, user)
	}
	if u.Status != "" && u.Status != access.StatusActive {
		return domain.Identity{}, fmt.Errorf("%w: user %s is %s", domain.ErrUnauthenticated, user, u.Status)
	}
	return domain.Identity{ID: u.ID}, nil // as before: a bus query is a user's, whatever its role
}
