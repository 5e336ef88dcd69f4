package eventlog

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/events/subjects"
	"github.com/cmem/cmem/internal/tracing"
)

// AppendOption changes how one event is appended.
type AppendOption func(*appendOpts)

type appendOpts struct {
	expectNew  bool
	expectLast uint64
}

// ExpectNew makes the append fail with ErrSubjectTaken if the event's subject
// already holds an event. The check and the write are one atomic step on the
// stream leader, so two gateways cannot both register the same id.
func ExpectNew() AppendOption { return func(o *appendOpts) { o.expectNew = true } }

// ExpectLast makes the append fail with ErrSubjectTaken unless the newest
// event on the event's subject is the one stored at revision rev (> 0): the
// check and the write are one atomic step on the stream leader. An expirer
// uses it so that an expired event can only follow the grant it ends.
func ExpectLast(rev uint64) AppendOption { return func(o *appendOpts) { o.expectLast = rev } }

// TypeHeader carries the event type so consumers can route without decoding.
const TypeHeader = "Cmem-Type"

// Append checks e against its schema and stores it, returning its revision.
// Appending an event id that is already stored (a retry) returns the
// revision of the stored copy instead of writing a second one. An append
// without an expectation may travel to the leader in one atomic batch
// with others made at the same time (group commit, see groupcommit.go).
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
	var rev uint64
	switch {
	// A conditional append is sent once: a repeat of one that did land
	// could be judged on its expectation before its id, and refused.
	case o.expectNew:
		rev, err = l.publishOne(ctx, msg, append(pub, jetstream.WithExpectLastSequencePerSubject(0))...)
	case o.expectLast > 0:
		rev, err = l.publishOne(ctx, msg, append(pub, jetstream.WithExpectLastSequencePerSubject(o.expectLast))...)
	case l.pending != nil:
		rev, err = l.appendGrouped(ctx, msg, e.ID)
	default:
		rev, err = l.publishRetried(ctx, msg, pub...)
	}
	if err != nil {
		if isWrongLastSequence(err) {
			return 0, fmt.Errorf("%w: %s", ErrSubjectTaken, msg.Subject)
		}
		return 0, fmt.Errorf("eventlog: append %s: %w", e.Type, err)
	}
	return rev, nil
}

// batchWindow bounds the publishes of a batch awaiting their
// acknowledgement: past the client's pending limit a publish stalls and
// fails, and with a server that syncs every write (the default) acks come
// back more slowly than publishes go out.
const batchWindow = 1024

// AppendBatch stores es with pipelined publishes, at most batchWindow in
// flight, and returns their revisions in order. It is for bulk loads
// (imports, benchmarks); commands use Append.
func (l *Log) AppendBatch(ctx context.Context, es []events.Envelope) ([]uint64, error) {
	revs := make([]uint64, len(es))
	appendRequests.Add(float64(len(es)))
	for lo := 0; lo < len(es); lo += batchWindow {
		hi := min(lo+batchWindow, len(es))
		futures := make([]jetstream.PubAckFuture, hi-lo)
		for i := lo; i < hi; i++ {
			msg, err := l.message(ctx, es[i])
			if err != nil {
				return nil, fmt.Errorf("event %d: %w", i, err)
			}
			if futures[i-lo], err = l.js.PublishMsgAsync(msg, jetstream.WithMsgID(es[i].ID)); err != nil {
				return nil, fmt.Errorf("eventlog: append batch event %d: %w", i, err)
			}
		}
		for j, f := range futures {
			select {
			case ack := <-f.Ok():
				revs[lo+j] = ack.Sequence
			case err := <-f.Err():
				return nil, fmt.Errorf("eventlog: append batch event %d: %w", lo+j, err)
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		}
	}
	return revs, nil
}

// message checks e against its schemas in clear, then seals its content
// (when a sealer is set): what reaches the stream holds no plaintext
// content. The trace context of ctx (if any) rides in its headers, so the
// consumers' spans join the producer's trace.
func (l *Log) message(ctx context.Context, e events.Envelope) (*nats.Msg, error) {
	raw, err := l.validator.Marshal(e)
	if err != nil {
		return nil, err
	}
	if l.sealer != nil && events.HasContent(e.Type) {
		if e, err = l.sealer.Seal(ctx, e); err != nil {
			return nil, fmt.Errorf("eventlog: seal %s: %w", e.Type, err)
		}
		if raw, err = json.Marshal(e); err != nil {
			return nil, fmt.Errorf("eventlog: encode %s: %w", e.Type, err)
		}
	}
	// The limit applies to what is stored: sealed content is about 4/3 of
	// its plaintext plus 60 bytes a field.
	if limit := l.MaxEventBytes(); int64(len(raw)) > limit {
		return nil, fmt.Errorf("%w: %s encodes to %d bytes, the limit is %d", ErrTooLarge, e.Type, len(raw), limit)
	}
	msg := nats.NewMsg(subjects.Event(e.Subject))
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

// Sealer seals the content fields of an event for the stream and opens
// them for readers (implemented by *shred.Sealer).
type Sealer interface {
	Seal(ctx context.Context, e events.Envelope) (events.Envelope, error)
	Open(ctx context.Context, e events.Envelope) (events.Envelope, error)
}

// SetSealer makes every later append seal content under its data
// subject's key, and Open open it. Call it before the log is shared
// between goroutines.
func (l *Log) SetSealer(s Sealer) { l.sealer = s }

// Open returns e with its sealed content opened (events.Erased where the
// key is gone). Readers of the stream (projection runners, workers) call it
// before they use an event's data; without a sealer it returns e.
func (l *Log) Open(ctx context.Context, e events.Envelope) (events.Envelope, error) {
	if l.sealer == nil {
		return e, nil
	}
	return l.sealer.Open(ctx, e)
}

// headerAllowance is what an event's headers (type, message id, expected
// stream and sequence) may take of the server's payload limit.
const headerAllowance = 1024

// MaxEventBytes is the largest encoded event Append takes: the server's
// message limit (1 MiB by default) less room for the headers. The check is
// on the encoded event, after JSON escaping, which can multiply the size
// of a field (a '<' becomes 6 bytes).
func (l *Log) MaxEventBytes() int64 { return l.nc.MaxPayload() - headerAllowance }
