package eventlog

import (
	"context"
	"errors"
	"fmt"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/tracing"
)

// AppendOption changes how one event is appended.
type AppendOption func(*appendOpts)

type appendOpts struct{ expectNew bool }

// ExpectNew makes the append fail with ErrSubjectTaken if the event's subject
// already holds an event. The check and the write are one atomic step on the
// stream leader, so two gateways cannot both register the same id.
func ExpectNew() AppendOption { return func(o *appendOpts) { o.expectNew = true } }

// TypeHeader carries the event type so consumers can route without decoding.
const TypeHeader = "Cmem-Type"

// Append checks e against its schema and stores it, returning its revision.
// Appending an event id that is already stored (a retry) returns the
// revision of the stored copy instead of writing a second one.
func (l *Log) Append(ctx context.Context, e events.Envelope, opts ...AppendOption) (uint64, error) {
	var o appendOpts
	for _, opt := range opts {
		opt(&o)
	}
	msg, err := l.message(ctx, e)
	if err != nil {
		return 0, err
	}
	pub := []jetstream.PublishOpt{jetstream.WithMsgID(e.ID), jetstream.WithExpectStream(l.cfg.Stream)}
	if o.expectNew {
		pub = append(pub, jetstream.WithExpectLastSequencePerSubject(0))
	}
	appendRequests.Inc()
	ack, err := l.js.PublishMsg(ctx, msg, pub...)
	if err != nil {
		if isWrongLastSequence(err) {
			return 0, fmt.Errorf("%w: %s", ErrSubjectTaken, msg.Subject)
		}
		return 0, fmt.Errorf("eventlog: append %s: %w", e.Type, err)
	}
	return ack.Sequence, nil
}

// AppendBatch stores es with pipelined publishes and returns their revisions
// in order. It is for bulk loads (imports, benchmarks); commands use Append.
func (l *Log) AppendBatch(ctx context.Context, es []events.Envelope) ([]uint64, error) {
	futures := make([]jetstream.PubAckFuture, len(es))
	appendRequests.Add(float64(len(es)))
	for i, e := range es {
		msg, err := l.message(ctx, e)
		if err != nil {
			return nil, fmt.Errorf("event %d: %w", i, err)
		}
		if futures[i], err = l.js.PublishMsgAsync(msg, jetstream.WithMsgID(e.ID)); err != nil {
			return nil, fmt.Errorf("eventlog: append batch event %d: %w", i, err)
		}
	}
	revs := make([]uint64, len(es))
	for i, f := range futures {
		select {
		case ack := <-f.Ok():
			revs[i] = ack.Sequence
		case err := <-f.Err():
			return nil, fmt.Errorf("eventlog: append batch event %d: %w", i, err)
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	return revs, nil
}

// message is e as a NATS message; the trace context of ctx (if any) rides
// in its headers, so the consumers' spans join the producer's trace.
func (l *Log) message(ctx context.Context, e events.Envelope) (*nats.Msg, error) {
	raw, err := l.validator.Marshal(e)
	if err != nil {
		return nil, err
	}
	if limit := l.MaxEventBytes(); int64(len(raw)) > limit {
		return nil, fmt.Errorf("%w: %s encodes to %d bytes, the limit is %d", ErrTooLarge, e.Type, len(raw), limit)
	}
	msg := nats.NewMsg(Subject(e.Subject))
	msg.Data = raw
	msg.Header.Set(TypeHeader, e.Type)
	tracing.Inject(ctx, tracing.Header(msg.Header))
	return msg, nil
}

func isWrongLastSequence(err error) bool {
	var apiErr *jetstream.APIError
	if !errors.As(err, &apiErr) {
		return false
	}
	return apiErr.ErrorCode == jetstream.JSErrCodeStreamWrongLastSequence ||
		apiErr.ErrorCode == jetstream.JSErrCodeStreamWrongLastSequenceConstant
}

// headerAllowance is what an event's headers (type, message id, expected
// stream and sequence) may take of the server's payload limit.
const headerAllowance = 1024

// MaxEventBytes is the largest encoded event Append takes: the server's
// message limit (1 MiB by default) less room for the headers. The check is
// on the encoded event, after JSON escaping, which can multiply the size
// of a field (a '<' becomes 6 bytes).
func (l *Log) MaxEventBytes() int64 { return l.nc.MaxPayload() - headerAllowance }
