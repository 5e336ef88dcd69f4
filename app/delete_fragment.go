package app

import (
	"context"
	"fmt"
	"slices"

	"github.com/cmem/cmem/domain"
	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/projectors/memory"
)

// DeleteFragment is the fragment's owner or an admin deleting it: its key
// is destroyed (its content leaves the log), and with it the keys of the
// earlier versions of its fact by the same owner (what it superseded is
// the same fact: deleting it deletes its history), of every fragment
// derived from any of them and of every query that read any of them (the
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
	erased := append([]string{id}, a.supersededBy(f)...)
	derived := slices.Concat(erased[1:], a.fragments.DerivedFrom(erased))
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

// supersededBy lists the versions of f's fact observed before it (or with
// it, recorded before it) that f's owner wrote: the history a deletion of f
// takes with it. Other users' versions are theirs to delete.
func (a *App) supersededBy(f memory.FragmentInfo) []string {
	var out []string
	for _, v := range a.fragments.Versions(f.ID) {
		if v.ID == f.ID {
			break
		}
		if v.User == f.User {
			out = append(out, v.ID)
		}
	}
	return out
}
