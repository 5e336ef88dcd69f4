package feed

import (
	"context"

	"github.com/cmem/cmem/projectors/snapshot"
)

var _ snapshot.Freezer = (*Feed)(nil)

// MarshalSnapshot implements snapshot.Section: the ring of recent events'
// metadata (no content).
func (f *Feed) MarshalSnapshot(ctx context.Context, s snapshot.Sealer) ([]byte, error) {
	return f.FreezeSnapshot()(ctx, s)
}

// FreezeSnapshot implements snapshot.Freezer: the ring is copied; the
// result encodes.
func (f *Feed) FreezeSnapshot() snapshot.Frozen {
	f.mu.Lock()
	ring := append([]Event(nil), f.ring...)
	f.mu.Unlock()
	return func(context.Context, snapshot.Sealer) ([]byte, error) { return snapshot.EncodeJSON("feed", ring) }
}

// RestoreSnapshot implements snapshot.Section.
func (f *Feed) RestoreSnapshot(_ context.Context, _ snapshot.Sealer, revision uint64, data []byte) (func(), error) {
	var ring []Event
	if err := snapshot.DecodeJSON("feed", data, &ring); err != nil {
		return nil, err
	}
	return func() {
		f.mu.Lock()
		defer f.mu.Unlock()
		if len(ring) > f.capacity {
			ring = ring[len(ring)-f.capacity:]
		}
		f.revision, f.ring = revision, ring
	}, nil
}
