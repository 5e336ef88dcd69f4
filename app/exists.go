package app

import (
	"context"
	"fmt"

	"github.com/cmem/cmem/domain"
	"github.com/cmem/cmem/events"
)

// requireRegistered checks kind/id's form and that it was registered.
// Registration is permanent on the log (the stream denies deletes and
// purges, and erasure appends to the entity's subject), so an entity the
// access projection already holds exists without asking anyone: only a miss
// asks the log leader, so that an entity registered a moment ago through
// another gateway is found. A command then costs one round trip, its append.
func (a *App) requireRegistered(ctx context.Context, kind, id string) error {
	if err := events.CheckID(id); err != nil {
		return fmt.Errorf("%w: %w", domain.ErrInvalid, err)
	}
	if a.projected(kind, id) {
		return nil
	}
	rev, err := a.log.Head(ctx, kind+id)
	if err != nil {
		return fmt.Errorf("%w: %w", domain.ErrUnavailable, err)
	}
	if rev == 0 {
		return fmt.Errorf("%w: %s%s", domain.ErrNotFound, kind, id)
	}
	return nil
}

// projected says whether the access projection holds kind/id.
func (a *App) projected(kind, id string) bool {
	var ok bool
	switch kind {
	case "users/":
		_, ok = a.view.User(id)
	case "agents/":
		_, ok = a.view.Agent(id)
	case "resources/":
		_, ok = a.view.Resource(id)
	}
	return ok
}
