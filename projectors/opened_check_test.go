package projectors_test

import (
	"context"
	"encoding/json"
	"maps"
	"testing"

	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/events/eventlog"
	"github.com/cmem/cmem/events/eventlog/logtest"
	"github.com/cmem/cmem/projectors"
)

// openingSource reads a log and opens each event with open: a stand-in
// for the sealer, to test what the runner does with what opening gives.
type openingSource struct {
	l    *eventlog.Log
	open func(events.Envelope) (events.Envelope, error)
}

func (o openingSource) Follow(ctx context.Context, from uint64, fn func(eventlog.Msg) error) error {
	return o.l.Follow(ctx, from, fn)
}

func (o openingSource) DeadLetter(ctx context.Context, consumer string, m eventlog.Msg, reason string) error {
	return o.l.DeadLetter(ctx, consumer, m, reason)
}

func (o openingSource) Open(_ context.Context, e events.Envelope) (events.Envelope, error) {
	return o.open(e)
}

// badOpen "opens" every event into data its schema rejects: what the
// envelope's one-pass check saw is not what the projections would get.
func badOpen(e events.Envelope) (events.Envelope, error) {
	e.Data = json.RawMessage(`{"user":"not an id!","agent":"a"}`)
	return e, nil
}

// projectOpened appends a grant of user u to each agent, runs a runner
// whose source opens every event with open until it has handled them all,
// and returns what it applied by revision and how many events it
// dead-lettered.
func projectOpened(t *testing.T, open func(events.Envelope) (events.Envelope, error), agents ...string) (map[uint64]events.Payload, int) {
	t.Helper()
	ctx := context.Background()
	l := logtest.Open(t, "")
	for _, agent := range agents {
		e, err := events.New(events.Meta{Source: "test", Actor: "admin"}, &events.UserAgentGranted{User: "u", Agent: agent})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := l.Append(ctx, e); err != nil {
			t.Fatal(err)
		}
	}
	rec := &recorder{name: "rec", got: map[uint64]events.Payload{}, recs: map[uint64]events.Record{}}
	r, err := projectors.NewRunner(openingSource{l, open}, logtest.Logger(), rec)
	if err != nil {
		t.Fatal(err)
	}
	rctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { defer close(done); _ = r.Run(rctx) }()
	defer func() { cancel(); <-done }()
	waitFor(t, r, uint64(len(agents)))
	dl, err := l.DeadLetters(ctx, "rec")
	if err != nil {
		t.Fatal(err)
	}
	rec.mu.Lock()
	defer rec.mu.Unlock()
	return maps.Clone(rec.got), len(dl)
}

// TestOpenedDataIsChecked: data checked together with the envelope is
// checked again once opening changed it; an opened event its schema
// rejects is dead-lettered, never applied. Fails when the runner trusts
// the envelope's check after opening.
func TestOpenedDataIsChecked(t *testing.T) {
	got, dead := projectOpened(t, badOpen, "a")
	if p := got[1]; p != nil {
		t.Fatalf("an opened event its schema rejects was applied: %+v", p)
	}
	if dead != 1 {
		t.Fatalf("dead letters %d, want 1", dead)
	}
}
