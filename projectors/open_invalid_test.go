package projectors_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/events/eventlog/logtest"
	"github.com/cmem/cmem/projectors"
)

// unopenable opens nothing of an event carrying agent "sealed" (tampered
// or malformed content: events.ErrInvalid).
func unopenable(e events.Envelope) (events.Envelope, error) {
	p, err := e.Decode()
	if err != nil {
		return e, err
	}
	if g, ok := p.(*events.UserAgentGranted); ok && g.Agent == "sealed" {
		return e, fmt.Errorf("%w: content that never opens", events.ErrInvalid)
	}
	return e, nil
}

// TestUnopenableContentIsDeadLettered: an event whose sealed content can
// never be opened is dead-lettered and the events after it are applied;
// only a key store that cannot answer is retried. Fails (the runner stops
// at the first event) when every open error is retried.
func TestUnopenableContentIsDeadLettered(t *testing.T) {
	ctx := context.Background()
	l := logtest.Open(t, "")
	for _, agent := range []string{"sealed", "a"} {
		e, err := events.New(events.Meta{Source: "test", Actor: "admin"}, &events.UserAgentGranted{User: "u", Agent: agent})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := l.Append(ctx, e); err != nil {
			t.Fatal(err)
		}
	}
	rec := &recorder{name: "rec", got: map[uint64]events.Payload{}, recs: map[uint64]events.Record{}}
	r, err := projectors.NewRunner(openingSource{l, unopenable}, logtest.Logger(), rec)
	if err != nil {
		t.Fatal(err)
	}
	rctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { defer close(done); _ = r.Run(rctx) }()
	defer func() { cancel(); <-done }()
	waitFor(t, r, 2)
	rec.mu.Lock()
	defer rec.mu.Unlock()
	if rec.got[1] != nil || rec.got[2] == nil {
		t.Fatalf("applied %v, want only revision 2", rec.got)
	}
	dl, err := l.DeadLetters(ctx, "rec")
	if err != nil || len(dl) != 1 {
		t.Fatalf("dead letters %d (%v), want 1", len(dl), err)
	}
}
