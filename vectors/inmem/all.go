package inmem

import (
	"context"
	"slices"

	"github.com/cmem/cmem/vectors"
)

// All returns every fragment the store holds, with its vector (a snapshot
// of the in-process view reads it).
func (s *Store) All(ctx context.Context) ([]vectors.Fragment, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.closed {
		return nil, ErrClosed
	}
	out := make([]vectors.Fragment, 0, len(s.where))
	for _, at := range s.where {
		f := at.p.meta[at.row]
		f.Vector = slices.Clone(at.p.vector(at.row))
		out = append(out, f)
	}
	return out, nil
}
