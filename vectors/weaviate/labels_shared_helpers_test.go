package weaviate

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/cmem/cmem/vectors"
)

// testLease is a Lease a test hands from one Store to another.
type testLease struct{ held atomic.Bool }

func (l *testLease) Held() bool { return l.held.Load() }

func (l *testLease) Check(context.Context) error {
	if !l.held.Load() {
		return errors.New("lease not held")
	}
	return nil
}

// openShared opens a Store of a shared class under lease (held or not),
// stepping every 20 ms, trusting a ready flag for valid and evicting with
// grace.
func openShared(tb testing.TB, cfg Config, held bool, valid, grace time.Duration) (*Store, *testLease) {
	tb.Helper()
	cfg.Shared = true
	s := openKept(tb, cfg)
	tb.Cleanup(func() { _ = s.Close() })
	l := &testLease{}
	l.held.Store(held)
	s.labels.mu.Lock()
	s.labels.refresh, s.labels.valid, s.labels.grace = 20*time.Millisecond, valid, grace
	s.labels.mu.Unlock()
	s.share(l)
	return s, l
}

// waitUsable waits, up to two minutes, until s would search f through
// its label (ready, not leaving, its flag fresh), looking every 10 ms.
func waitUsable(tb testing.TB, s *Store, f vectors.Filter) {
	tb.Helper()
	waitFor(tb, 2*time.Minute, "the reader class of a filter to be usable", func() bool {
		s.labels.mu.RLock()
		defer s.labels.mu.RUnlock()
		c, _ := s.labels.lookup(readerLabel(f))
		return c != nil
	})
}

// waitFor waits, up to within, until cond holds, looking every 10 ms.
func waitFor(tb testing.TB, within time.Duration, what string, cond func() bool) {
	tb.Helper()
	deadline := time.Now().Add(within)
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for !cond() {
		if time.Now().After(deadline) {
			tb.Fatalf("waited %v for %s", within, what)
		}
		<-tick.C
	}
}

// served is how many searches s answered through a label.
func served(s *Store) int64 { return s.labels.searches.Load() }
