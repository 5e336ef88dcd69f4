package snapshottest

import (
	"context"
	"maps"
	"slices"
	"sync"

	"github.com/cmem/cmem/projectors/snapshot"
)

// Mem is a snapshot.Store in memory. It keeps copies, so neither the
// caller's blob nor what Newest returned can change a stored snapshot.
type Mem struct {
	mu    sync.Mutex
	blobs map[uint64][]byte
}

var _ Store = (*Mem)(nil)

// NewMem returns an empty store.
func NewMem() *Mem { return &Mem{blobs: map[uint64][]byte{}} }

// Put implements snapshot.Store.
func (m *Mem) Put(_ context.Context, revision uint64, blob []byte) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.blobs[revision] = slices.Clone(blob)
	return nil
}

// Newest implements snapshot.Store.
func (m *Mem) Newest(context.Context) (uint64, []byte, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(m.blobs) == 0 {
		return 0, nil, snapshot.ErrNone
	}
	rev := slices.Max(slices.Collect(maps.Keys(m.blobs)))
	return rev, slices.Clone(m.blobs[rev]), nil
}

// Prune implements snapshot.Store.
func (m *Mem) Prune(_ context.Context, keep int) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	revs := slices.Sorted(maps.Keys(m.blobs))
	for _, r := range revs[:max(len(revs)-max(keep, 0), 0)] {
		delete(m.blobs, r)
	}
	return nil
}

// Revisions implements Store: the revisions held, ascending.
func (m *Mem) Revisions(context.Context) ([]uint64, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.Sorted(maps.Keys(m.blobs)), nil
}
