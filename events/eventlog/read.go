package eventlog

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/cmem/cmem/events/subjects"
)

// Read returns every stored event whose envelope subject matches filter (a
// NATS-style pattern over envelope subjects, "queries/*/q1"), in log order.
// It reads what the stream holds when called and returns; it is for
// rebuilding one aggregate on demand (a query evicted from memory), not for
// following the log.
func (l *Log) Read(ctx context.Context, filter string) ([]Msg, error) {
	cons, err := l.js.OrderedConsumer(ctx, l.cfg.Stream, jetstream.OrderedConsumerConfig{
		FilterSubjects: []string{subjects.Event(filter)}, DeliverPolicy: jetstream.DeliverAllPolicy})
	if err != nil {
		return nil, fmt.Errorf("eventlog: read %s: %w", filter, err)
	}
	info, err := cons.Info(ctx)
	if err != nil {
		return nil, fmt.Errorf("eventlog: read %s: %w", filter, err)
	}
	out := make([]Msg, 0, info.NumPending)
	for uint64(len(out)) < info.NumPending {
		m, err := cons.Next(jetstream.FetchContext(ctx))
		if errors.Is(err, nats.ErrNoResponders) && ctx.Err() == nil {
			// On a cluster a new consumer can take a moment to be served
			// by its node; the ordered consumer keeps its place.
			time.Sleep(50 * time.Millisecond)
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("eventlog: read %s: %w", filter, err)
		}
		meta, err := m.Metadata()
		if err != nil {
			return nil, fmt.Errorf("eventlog: read metadata: %w", err)
		}
		out = append(out, Msg{Revision: meta.Sequence.Stream, Subject: m.Subject(), Data: m.Data(), Pending: meta.NumPending})
	}
	return out, nil
}
