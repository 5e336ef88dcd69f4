package app

import (
	"context"
	"fmt"

	"github.com/cmem/cmem/domain"
	"github.com/cmem/cmem/vectors"
)

// everyFragment calls visit with every fragment of every registered user,
// read from the store in batches. Spoken governance uses it where it must
// find everything a scope holds, not the best few hits of a view.
func (a *App) everyFragment(ctx context.Context, visit func(vectors.Fragment)) error {
	var ids []string
	for _, u := range a.view.UserIDs() {
		ids = append(ids, a.fragments.OfUser(u)...)
	}
	const batch = 500
	for i := 0; i < len(ids); i += batch {
		fs, err := a.store.Get(ctx, ids[i:min(i+batch, len(ids))])
		if err != nil {
			return fmt.Errorf("%w: %w", domain.ErrUnavailable, err)
		}
		for _, f := range fs {
			visit(f)
		}
	}
	return nil
}
