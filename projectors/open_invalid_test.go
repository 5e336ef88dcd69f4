package projectors_test

import (
	"fmt"
	"testing"

	"github.com/cmem/cmem/events"
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
	got, dead := projectOpened(t, unopenable, "sealed", "a")
	if got[1] != nil || got[2] == nil {
		t.Fatalf("applied %v, want only revision 2", got)
	}
	if dead != 1 {
		t.Fatalf("dead letters %d, want 1", dead)
	}
}
