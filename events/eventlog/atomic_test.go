package eventlog_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/events/eventlog"
	"github.com/cmem/cmem/events/eventlog/logtest"
)

// An atomic append stores every event at consecutive revisions and
// answers them in order.
func TestAppendAtomicStoresAllAtConsecutiveRevisions(t *testing.T) {
	ctx := context.Background()
	l := logtest.Open(t, "")
	if _, err := l.Append(ctx, newEvent(t, &events.AgentRegistered{ID: "first", Description: "d"})); err != nil {
		t.Fatal(err)
	}
	var es []eventlog.Entry
	for i := range 5 {
		es = append(es, eventlog.Entry{Event: newEvent(t, &events.AgentRegistered{ID: fmt.Sprintf("a%d", i), Description: "d"}), New: true})
	}
	revs, err := l.AppendAtomic(ctx, es)
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range revs {
		if r != uint64(2+i) {
			t.Fatalf("revisions %v, want 2..6", revs)
		}
	}
	if head, _ := l.Head(ctx, "agents/a4"); head != 6 {
		t.Fatalf("head of agents/a4 = %d, want 6", head)
	}
}

// One event whose subject is taken fails the whole batch: nothing of it
// is stored, and the error says why.
func TestAppendAtomicIsAllOrNothing(t *testing.T) {
	ctx := context.Background()
	l := logtest.Open(t, "")
	if _, err := l.Append(ctx, newEvent(t, &events.AgentRegistered{ID: "taken", Description: "d"})); err != nil {
		t.Fatal(err)
	}
	es := []eventlog.Entry{
		{Event: newEvent(t, &events.AgentRegistered{ID: "fresh", Description: "d"}), New: true},
		{Event: newEvent(t, &events.AgentRegistered{ID: "taken", Description: "d"}), New: true},
		{Event: newEvent(t, &events.AgentRegistered{ID: "later", Description: "d"}), New: true},
	}
	if _, err := l.AppendAtomic(ctx, es); !errors.Is(err, eventlog.ErrSubjectTaken) {
		t.Fatalf("got %v, want ErrSubjectTaken", err)
	}
	if head, _ := l.Head(ctx, ""); head != 1 {
		t.Fatalf("head = %d after a refused batch, want 1 (nothing stored)", head)
	}
	if head, _ := l.Head(ctx, "agents/fresh"); head != 0 {
		t.Fatalf("agents/fresh stored at %d from a refused batch", head)
	}
	big := make([]eventlog.Entry, eventlog.MaxAtomic+1)
	if _, err := l.AppendAtomic(ctx, big); !errors.Is(err, eventlog.ErrTooLarge) {
		t.Fatalf("got %v for %d events, want ErrTooLarge", err, len(big))
	}
}

// Concurrent appends (which group commit sends together) each get the
// revision their own event is stored at, and an event appended twice at
// once is stored once.
func TestConcurrentAppendsGetTheirOwnRevisions(t *testing.T) {
	ctx := context.Background()
	l := logtest.Open(t, "")
	const n = 200
	es := make([]events.Envelope, n)
	for i := range es {
		es[i] = newEvent(t, &events.AgentRegistered{ID: fmt.Sprintf("a%d", i), Description: "d"})
	}
	revs := make([]uint64, n+1)
	var wg sync.WaitGroup
	for i := range n + 1 {
		wg.Go(func() {
			e := es[i%n] // the last one appends es[0] again
			rev, err := l.Append(ctx, e)
			if err != nil {
				t.Error(err)
			}
			revs[i] = rev
		})
	}
	wg.Wait()
	if revs[n] != revs[0] {
		t.Fatalf("the same event appended twice at once stored at %d and %d", revs[0], revs[n])
	}
	if head, _ := l.Head(ctx, ""); head != n {
		t.Fatalf("head %d after %d distinct events", head, n)
	}
	v, err := events.DefaultValidator()
	if err != nil {
		t.Fatal(err)
	}
	stored := map[uint64]string{}
	fctx, stop := context.WithCancel(ctx)
	defer stop()
	_ = l.Follow(fctx, 1, func(m eventlog.Msg) error {
		e, err := v.Parse(m.Data)
		if err != nil {
			t.Error(err)
		}
		stored[m.Revision] = e.ID
		if m.Revision >= n {
			stop()
		}
		return nil
	})
	for i, e := range es {
		if stored[revs[i]] != e.ID {
			t.Fatalf("event %d answered revision %d, which holds %s, not %s", i, revs[i], stored[revs[i]], e.ID)
		}
	}
}
