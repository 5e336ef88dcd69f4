package eventlog_test

import (
	"context"
	"testing"
	"time"

	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/events/eventlog"
	"github.com/cmem/cmem/events/eventlog/logtest"
)

// A Follow whose consumer can no longer be recreated (here: its stream is
// gone) ends with an error after a few tries instead of waiting silently
// for ever: the client's ordered consumer would otherwise retry without
// end and without a word, and a process waiting for its projections would
// hang with nothing in its log.
func TestFollowEndsWhenItsConsumerCannotBeRecreated(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	l := logtest.Open(t, t.TempDir())
	if _, err := l.Append(ctx, newEvent(t, &events.AgentRegistered{ID: "a0", Description: "d"})); err != nil {
		t.Fatal(err)
	}
	first := make(chan struct{}, 1)
	ended := make(chan error, 1)
	go func() {
		ended <- l.Follow(ctx, 1, func(eventlog.Msg) error {
			select {
			case first <- struct{}{}:
			default:
			}
			return nil
		})
	}()
	select {
	case <-first:
	case err := <-ended:
		t.Fatalf("Follow ended before the first event: %v", err)
	case <-ctx.Done():
		t.Fatal("no event followed")
	}
	if err := l.JetStream().DeleteStream(ctx, l.StreamName()); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-ended:
		if err == nil || ctx.Err() != nil {
			t.Fatalf("Follow ended with %v (ctx %v), want the recreation's error", err, ctx.Err())
		}
	case <-ctx.Done():
		t.Fatal("Follow still waits 2 minutes after its stream was deleted")
	}
}
