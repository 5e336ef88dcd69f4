package memory

import (
	"context"
	"errors"
	"fmt"

	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/projectors/snapshot"
)

// The registry and the view snapshot the same way: freeze a copy under
// the lock, then seal each fragment's content under that fragment's key
// outside it; a fragment whose key is gone (erased since) is left out, on
// sealing as on opening. These helpers are that shape, once.

// marshalFrozen is MarshalSnapshot for a Freezer: freeze now, seal now.
func marshalFrozen(ctx context.Context, s snapshot.Sealer, f snapshot.Freezer) ([]byte, error) {
	return f.FreezeSnapshot()(ctx, s)
}

// sealEach seals the plain content that content returns for each item
// under the key of its fragment and user; an item without content (nil)
// or whose key is gone is left out.
func sealEach[T any](ctx context.Context, s snapshot.Sealer, items []T, content func(T) (id, user string, plain []byte, err error)) ([]sealedFragment, error) {
	out := make([]sealedFragment, 0, len(items))
	for _, it := range items {
		id, user, plain, err := content(it)
		if err != nil {
			return nil, err
		}
		if plain == nil {
			continue
		}
		sealed, err := s.Seal(ctx, events.DataSubject{User: user, Fragment: id}, plain)
		if errors.Is(err, snapshot.ErrGone) {
			continue
		}
		if err != nil {
			return nil, err
		}
		out = append(out, sealedFragment{ID: id, User: user, Sealed: sealed})
	}
	return out, nil
}

// openEach opens each sealed fragment and hands its plain content to use;
// a fragment whose key was destroyed since is skipped, never restored.
func openEach(ctx context.Context, s snapshot.Sealer, sealed []sealedFragment, use func(sf sealedFragment, plain []byte) error) error {
	for _, sf := range sealed {
		plain, err := s.Open(ctx, sf.Sealed)
		if errors.Is(err, snapshot.ErrGone) {
			continue
		}
		if err != nil {
			return fmt.Errorf("memory: open fragment %s: %w", sf.ID, err)
		}
		if err := use(sf, plain); err != nil {
			return err
		}
	}
	return nil
}
