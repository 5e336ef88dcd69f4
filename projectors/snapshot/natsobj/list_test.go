package natsobj

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// stalledBucket is an object store whose listing never ends by itself,
// like the client's watcher whose consumer was lost: it answers only when
// its context ends.
type stalledBucket struct {
	jetstream.ObjectStore
	lists atomic.Int32
}

func (b *stalledBucket) List(ctx context.Context, _ ...jetstream.ListObjectsOpt) ([]*jetstream.ObjectInfo, error) {
	b.lists.Add(1)
	<-ctx.Done()
	return nil, ctx.Err()
}

// A listing that stalls is tried again a bounded number of times, then
// Newest fails (the process rebuilds from the log and says why) instead
// of waiting for ever on a context without a deadline.
func TestStalledListingEnds(t *testing.T) {
	defer func(d time.Duration) { listAttempt = d }(listAttempt)
	listAttempt = 50 * time.Millisecond
	b := &stalledBucket{}
	s := &Store{os: b}
	done := make(chan error, 1)
	go func() {
		_, _, err := s.Newest(context.Background())
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("Newest on a stalled listing: %v, want a deadline error", err)
		}
	case <-time.After(time.Minute):
		t.Fatal("Newest still waits a minute on a stalled listing")
	}
	if n := b.lists.Load(); n != listAttempts {
		t.Errorf("listed %d times, want %d", n, listAttempts)
	}
	if err := s.Prune(context.Background(), 1); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Prune on a stalled listing: %v", err)
	}
}
