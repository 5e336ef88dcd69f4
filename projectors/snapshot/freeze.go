package snapshot

import "context"

// Frozen is a section's state copied at one revision, marshalled later:
// it encodes exactly what the section's MarshalSnapshot would have
// encoded at that revision, whatever the projection applied since.
type Frozen func(ctx context.Context, s Sealer) ([]byte, error)

// Freezer is a Section that can copy its state quickly. The Writer
// freezes every such section while the projections are held and runs the
// slow part (encoding every item, sealing content) after the hold is
// released, so that readers waiting for the next revision are not
// stalled by a snapshot. A section that is not a Freezer is marshalled
// under the hold.
//
// The copy must share nothing the projection mutates in place later
// (clone what is mutated; immutable values may be shared). Content in it
// is sealed only when the Frozen runs: a Sealer never makes a key, so
// content erased between the freeze and the seal is dropped (ErrGone),
// and content sealed before its erasure is unreadable once its key is
// destroyed — the same as for a snapshot taken before the erasure.
type Freezer interface {
	Section
	// FreezeSnapshot copies the state; it is called while no event is
	// being applied.
	FreezeSnapshot() Frozen
}

// freeze copies s's state, or marshals it now when s cannot be frozen.
func freeze(ctx context.Context, s Section, sealer Sealer) (Frozen, error) {
	if f, ok := s.(Freezer); ok {
		return f.FreezeSnapshot(), nil
	}
	b, err := s.MarshalSnapshot(ctx, sealer)
	if err != nil {
		return nil, err
	}
	return func(context.Context, Sealer) ([]byte, error) { return b, nil }, nil
}
