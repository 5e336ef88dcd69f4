package eventlog

import (
	"context"
	"errors"
	"fmt"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// Msg is one stored event as read back, not yet parsed.
type Msg struct {
	Revision uint64
	Subject  string
	Data     []byte
	// Pending is how many events after this one the stream held when it was
	// delivered; 0 means the reader has caught up.
	Pending uint64
	// Header holds the message's NATS headers (the event type, and the
	// trace context of the span that appended it, if any).
	Header nats.Header
}

// followResets is how many times in a row the client may fail to recreate
// a stalled ordered consumer (backing off 1 s, 2 s, 4 s… up to 10 s)
// before Follow returns the error.
const followResets = 5

// Follow delivers every event from revision from (1 = the beginning) in log
// order to fn, then keeps delivering new ones until ctx ends or fn fails. It
// uses an ordered consumer: no acks, no redelivery, gaps repaired by the
// client, which is what a projection rebuilt in memory needs.
func (l *Log) Follow(ctx context.Context, from uint64, fn func(Msg) error) error {
	// The client recreates a stalled ordered consumer by itself, silently
	// and, by default, forever: a start then waited for its projections
	// without a word. After followResets failed recreations Next returns
	// the error instead, and the caller (projectors.Runner) says so and
	// follows again from its own revision.
	cfg := jetstream.OrderedConsumerConfig{DeliverPolicy: jetstream.DeliverAllPolicy, MaxResetAttempts: followResets}
	if from > 1 {
		cfg.DeliverPolicy = jetstream.DeliverByStartSequencePolicy
		cfg.OptStartSeq = from
	}
	cons, err := l.js.OrderedConsumer(ctx, l.cfg.Stream, cfg)
	if err != nil {
		return fmt.Errorf("eventlog: ordered consumer: %w", err)
	}
	it, err := cons.Messages(jetstream.PullMaxMessages(4096))
	if err != nil {
		return fmt.Errorf("eventlog: ordered consumer: %w", err)
	}
	stop := context.AfterFunc(ctx, it.Stop)
	defer stop()
	defer it.Stop()
	for {
		m, err := it.Next()
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			if errors.Is(err, jetstream.ErrMsgIteratorClosed) {
				return fmt.Errorf("eventlog: follow stopped: %w", err)
			}
			return fmt.Errorf("eventlog: follow: %w", err)
		}
		meta, err := m.Metadata()
		if err != nil {
			return fmt.Errorf("eventlog: follow metadata: %w", err)
		}
		if err := fn(Msg{Revision: meta.Sequence.Stream, Subject: m.Subject(), Data: m.Data(), Pending: meta.NumPending, Header: m.Headers()}); err != nil {
			return err
		}
	}
}
