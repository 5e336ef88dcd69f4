package app

import (
	"context"
	"fmt"

	"github.com/cmem/cmem/domain"
)

// The derived-content rule EraseUser and DeleteFragment share: what is
// derived from erased content, and every query that read any of it, is
// erased with it.

// Shredder destroys data keys (implemented by *shred.Keyring): content
// sealed under a destroyed key is erased from the log and every copy of it.
type Shredder interface {
	DestroyUser(ctx context.Context, user string) error
	DestroyFragment(ctx context.Context, user, fragment string) error
	DestroyQuery(ctx context.Context, user, query string) error
}

// waitErased waits until every projection that may hold erased content
// has applied the erasure at rev: the vector view, and the core ones
// (queries, graph memory), which an external view's runner does not wait
// for. A read that starts after the erasure is acknowledged finds none of
// it.
func (a *App) waitErased(ctx context.Context, rev uint64) error {
	if err := a.waitFor(ctx, rev); err != nil {
		return err
	}
	return a.waitOn(ctx, a.viewFresh, rev)
}

// eraseDerived destroys the keys of the derived fragments and of the
// queries that read any of read, and returns those queries' ids.
func (a *App) eraseDerived(ctx context.Context, derived, read []string) ([]string, error) {
	var ids []string
	for _, q := range a.queries.ThatRead(read) {
		ids = append(ids, q.ID)
		if a.keys != nil {
			if err := a.keys.DestroyQuery(ctx, q.User, q.ID); err != nil {
				return nil, fmt.Errorf("%w: erase query %s: %w", domain.ErrUnavailable, q.ID, err)
			}
		}
	}
	for _, id := range derived {
		f, ok := a.fragments.Get(id)
		if !ok || a.keys == nil {
			continue
		}
		if err := a.keys.DestroyFragment(ctx, f.User, id); err != nil {
			return nil, fmt.Errorf("%w: erase fragment %s: %w", domain.ErrUnavailable, id, err)
		}
	}
	return ids, nil
}
