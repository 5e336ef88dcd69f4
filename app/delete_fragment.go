package app

import (
	"context"
	"fmt"
	"slices"

	"github.com/cmem/cmem/domain"
	"github.com/cmem/cmem/events"
)

// DeleteFragment is the fragment's owner or an admin deleting it: its key
// is destroyed (its content leaves the log), and with it the keys of every
// fragment derived from it and of every query that read any of them (the
// derived-content rule: erased with it). A FragmentDeleted tombstone makes
// every projection drop them. It returns once the vector view has too.
func (a *App) DeleteFragment(ctx context.Context, by domain.Identity, id string) (uint64, error) {
	if err := events.CheckID(id); err != nil {
		return 0, fmt.Errorf("%w: %w", domain.ErrInvalid, err)
	}
	if err := a.fence(ctx, "", 0); err != nil {
		return 0, err
	}
	f, ok := a.fragments.Get(id)
	if !ok {
		return 0, fmt.Errorf("%w: fragment %s", domain.ErrNotFound, id)
	}
	if !by.Admin && by.ID != f.User {
		return 0, fmt.Errorf("%w: only the owner of fragment %s or an admin may delete it", domain.ErrForbidden, id)
	}
	if a.keys != nil {
		if err := a.keys.DestroyFragment(ctx, f.User, id); err != nil {
			return 0, fmt.Errorf("%w: erase fragment %s: %w", domain.ErrUnavailable, id, err)
		}
	}
	derived := a.fragments.DerivedFrom([]string{id})
	queries, err := a.eraseDerived(ctx, derived, append([]string{id}, derived...))
	if err != nil {
		return 0, err
	}
	slices.Sort(queries)
	rev, err := a.append(ctx, by, &events.FragmentDeleted{ID: id, User: f.User, Derived: nonNil(derived),
		Queries: nonNil(slices.Compact(queries))}, false)
	if err != nil {
		return 0, fmt.Errorf("delete fragment %s: %w", id, err)
	}
	return rev, a.waitErased(ctx, rev)
}
