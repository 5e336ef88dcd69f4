package projectors_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/events/eventlog/logtest"
)

// flakyStore is a Flusher whose first flushes fail, like an external store
// that is down for a while.
type flakyStore struct {
	mu        sync.Mutex
	failures  int
	pending   []uint64
	committed map[uint64]int // revision -> times committed
}

func (f *flakyStore) Name() string { return "flaky" }

func (f *flakyStore) Apply(r events.Record) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.pending = append(f.pending, r.Revision)
	return nil
}

func (f *flakyStore) Flush(context.Context) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.failures > 0 {
		f.failures--
		return errors.New("store unavailable")
	}
	for _, r := range f.pending {
		f.committed[r]++
	}
	f.pending = nil
	return nil
}

func (f *flakyStore) Discard() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.pending = nil
}

func TestFailedFlushReplaysTheBatchAndSkipsNothing(t *testing.T) {
	ctx := context.Background()
	l := logtest.Open(t, "")
	var envs []events.Envelope
	for i := range 600 {
		e, err := events.New(events.Meta{Source: "t", Actor: "a"}, &events.AgentRegistered{ID: fmt.Sprintf("a%d", i), Description: "d"})
		if err != nil {
			t.Fatal(err)
		}
		envs = append(envs, e)
	}
	if _, err := l.AppendBatch(ctx, envs); err != nil {
		t.Fatal(err)
	}
	store := &flakyStore{failures: 3, committed: map[uint64]int{}}
	r, stop := startRunner(t, l, store)
	defer stop()
	waitFor(t, r, 600)
	store.mu.Lock()
	defer store.mu.Unlock()
	if store.failures != 0 {
		t.Fatalf("%d failures left: the runner stopped retrying", store.failures)
	}
	for rev := uint64(1); rev <= 600; rev++ {
		if store.committed[rev] != 1 {
			t.Fatalf("revision %d committed %d times, want exactly once", rev, store.committed[rev])
		}
	}
}
