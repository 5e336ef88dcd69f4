package natsobj

import "context"

// Revisions lists the whole snapshots held, ascending, for
// snapshottest.Store.
func (s *Store) Revisions(ctx context.Context) ([]uint64, error) { return s.revisions(ctx) }
