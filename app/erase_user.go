package app

import (
	"context"
	"fmt"
	"slices"

	"github.com/cmem/cmem/domain"
	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/projectors/access"
)

// EraseUser is an admin, or the user itself ("forget me"), erasing a user:
// its keys are destroyed first (nothing new can be sealed for it from then
// on), then the keys of every fragment derived from its fragments and of
// every other user's query that read them, then its grants are revoked and
// UserErased is appended; every projection drops the content it lists and
// the user's token is refused. Calling it again on an erased user redoes
// the destruction (a no-op) and appends nothing new but the event.
func (a *App) EraseUser(ctx context.Context, by domain.Identity, user string) (uint64, error) {
	if !by.Admin && by.ID != user {
		return 0, fmt.Errorf("%w: only an admin or the user itself may erase user %s", domain.ErrForbidden, user)
	}
	if err := events.CheckID(user); err != nil {
		return 0, fmt.Errorf("%w: %w", domain.ErrInvalid, err)
	}
	if err := a.fence(ctx, events.UsersSubjectPrefix+user, 0); err != nil {
		return 0, err
	}
	if _, ok := a.view.User(user); !ok {
		return 0, fmt.Errorf("%w: user %s", domain.ErrNotFound, user)
	}
	if a.keys != nil {
		if err := a.keys.DestroyUser(ctx, user); err != nil {
			return 0, fmt.Errorf("%w: erase keys of %s: %w", domain.ErrUnavailable, user, err)
		}
	}
	// Everything acknowledged so far (fragments of anyone derived from the
	// user's, queries that read them) must be in the projections we ask.
	if err := a.fence(ctx, "", 0); err != nil {
		return 0, err
	}
	own := a.fragments.OfUser(user)
	derived := a.fragments.DerivedFrom(own)
	all := append(slices.Clone(own), derived...)
	queries := a.queries.OfUser(user)
	others, err := a.eraseDerived(ctx, derived, all)
	if err != nil {
		return 0, err
	}
	queries = append(queries, others...)
	slices.Sort(all)
	slices.Sort(queries)
	for _, agent := range a.view.Agents(user, access.Latest()) {
		if _, err := a.append(ctx, by, &events.UserAgentRevoked{User: user, Agent: agent}, false); err != nil {
			return 0, err
		}
	}
	rev, err := a.append(ctx, by, &events.UserErased{User: user, Fragments: nonNil(slices.Compact(all)),
		Queries: nonNil(slices.Compact(queries))}, false)
	if err != nil {
		return 0, fmt.Errorf("erase user %s: %w", user, err)
	}
	return rev, a.waitErased(ctx, rev)
}
