package weaviate

import (
	"context"
	"slices"
	"sync"
	"time"

	"github.com/cmem/cmem/vectors"
)

// Lease makes one process the writer of a class (*eventlog.Lease).
type Lease interface {
	// Held reports whether this process holds the lease now.
	Held() bool
	// Check is the fence: nil only while this process may write.
	Check(ctx context.Context) error
}

// Durable is a store that records how far the log was applied to it
// (*Store, and the sealed store over it).
type Durable interface {
	vectors.Store
	vectors.Checkpointer
}

// LeasedStore is a class every process's vector view feeds, written by the
// lease holder only (issue 26): writes no longer multiply with processes,
// and a process that lags can no longer write again a fragment the holder
// already deleted after an erasure. Upsert and Delete only buffer; the
// view's checkpoint at the end of each batch (SetCheckpoint) decides:
//
//   - the class's checkpoint has passed the batch, with vectors of the
//     same embedder: the holder wrote it, and the buffer is dropped;
//   - this process holds the lease and its fence passes: it writes the
//     batch and the checkpoint. Everything before the batch is in the
//     class already (this process's view got past it only that way), and
//     a batch that overlaps the checkpoint re-applies, in log order, events
//     the class holds, erasures in the batch included;
//   - else it waits for either, so that this process's view is never
//     fresher than the class it reads from.
//
// Reads, Reset and Checkpoint go to the store.
type LeasedStore struct {
	Durable
	lease Lease
	poll  time.Duration

	mu      sync.Mutex
	pending []vectors.Fragment
	deletes []string
}

// Leased returns s written under lease; poll (0: 100 ms) is how often a
// process that does not hold the lease looks at the class's checkpoint.
// The Store under s (found through Unwrap, as under a sealed store)
// shares its reader labels through the class (shared.go): it labels and
// materialises only while it holds lease, and otherwise searches through
// the labels the holder persisted ready. A Store that Leased cannot find
// must be opened with Config.Shared by its caller; it then never labels
// as the holder, and still searches exactly.
func Leased(s Durable, lease Lease, poll time.Duration) *LeasedStore {
	if poll == 0 {
		poll = 100 * time.Millisecond
	}
	if st := storeUnder(s); st != nil {
		st.share(lease)
	}
	return &LeasedStore{Durable: s, lease: lease, poll: poll}
}

// storeUnder is the *Store s is or wraps (Unwrap() vectors.Store), or nil.
func storeUnder(s vectors.Store) *Store {
	for s != nil {
		switch x := s.(type) {
		case *Store:
			return x
		case interface{ Unwrap() vectors.Store }:
			s = x.Unwrap()
		default:
			return nil
		}
	}
	return nil
}

// Upsert buffers fs until the batch's checkpoint.
func (s *LeasedStore) Upsert(_ context.Context, fs []vectors.Fragment) error {
	s.mu.Lock()
	s.pending = append(s.pending, slices.Clone(fs)...)
	s.mu.Unlock()
	return nil
}

// Delete buffers ids until the batch's checkpoint.
func (s *LeasedStore) Delete(_ context.Context, ids []string) error {
	s.mu.Lock()
	s.deletes = append(s.deletes, ids...)
	s.mu.Unlock()
	return nil
}

// SetCheckpoint ends a batch: see LeasedStore. The buffer is dropped
// however it ends (a failed batch is replayed whole by the view's runner).
func (s *LeasedStore) SetCheckpoint(ctx context.Context, rev uint64, model string) error {
	s.mu.Lock()
	pending, deletes := s.pending, s.deletes
	s.pending, s.deletes = nil, nil
	s.mu.Unlock()
	for {
		at, atModel, err := s.Checkpoint(ctx)
		if err != nil {
			return err
		}
		if at >= rev && atModel == model {
			return nil
		}
		if s.lease.Held() && s.lease.Check(ctx) == nil {
			if len(pending) > 0 {
				if err := s.Durable.Upsert(ctx, pending); err != nil {
					return err
				}
			}
			if len(deletes) > 0 {
				if err := s.Durable.Delete(ctx, deletes); err != nil {
					return err
				}
			}
			return s.Durable.SetCheckpoint(ctx, rev, model)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(s.poll):
		}
	}
}
