package weaviate

import (
	"context"
	"fmt"
	"sync"
)

// unlabelled guards forgetRegistry: a Store without labels forgets the
// persisted registry once, before its first write.
type unlabelled struct {
	mu   sync.Mutex
	done bool
}

// forgetRegistry drops the persisted registry before a write without
// labels: the classes it calls ready would no longer cover that write.
// A class no labelled Store ever used has none, and the first write then
// costs one look at the schema (deleting a class is a schema change,
// which a loaded server can take seconds to agree on).
func (s *Store) forgetRegistry(ctx context.Context) error {
	u := &s.unlabelled
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.done {
		return nil
	}
	exists, err := s.client.Schema().ClassExistenceChecker().WithClassName(s.registryClass()).Do(ctx)
	if err != nil {
		return fmt.Errorf("weaviate: look for the reader classes before writing without labels: %w", err)
	}
	if !exists {
		u.done = true
		return nil
	}
	if err := s.dropClass(ctx, s.registryClass()); err != nil {
		return fmt.Errorf("weaviate: forget the reader classes before writing without labels: %w", err)
	}
	u.done = true
	return nil
}

// dropClass deletes class if it exists.
func (s *Store) dropClass(ctx context.Context, class string) error {
	err := s.client.Schema().ClassDeleter().WithClassName(class).Do(ctx)
	if err == nil {
		return nil
	}
	if ok, cerr := s.client.Schema().ClassExistenceChecker().WithClassName(class).Do(ctx); cerr == nil && !ok {
		return nil
	}
	return fmt.Errorf("weaviate: delete class %s: %w", class, err)
}
