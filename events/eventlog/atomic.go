package eventlog

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/nats-io/nuid"

	"github.com/cmem/cmem/events"
)

// MaxAtomic is the most events one AppendAtomic stores: nats-server's
// default limit on an atomic batch.
const MaxAtomic = 1000

// Entry is one event of an atomic append.
type Entry struct {
	Event events.Envelope
	// New makes the whole append fail with ErrSubjectTaken if the event's
	// subject already holds an event (see ExpectNew).
	New bool
}

// Header names of JetStream's atomic batch publish (nats-server 2.12+).
const (
	batchIDHeader     = "Nats-Batch-Id"
	batchSeqHeader    = "Nats-Batch-Sequence"
	batchCommitHeader = "Nats-Batch-Commit"
)

// atomicTimeout bounds the commit of a batch whose context has no deadline.
const atomicTimeout = 30 * time.Second

// AppendAtomic stores es as one JetStream atomic batch: every event or
// none, at consecutive revisions, which it returns in order. The events
// go out without waiting and only the commit (the last event) waits for
// the leader's answer: one round trip for the batch. Every event keeps
// its Nats-Msg-Id, and an Entry with New its expected-empty subject; one
// that fails its check fails the batch. At most MaxAtomic events.
func (l *Log) AppendAtomic(ctx context.Context, es []Entry) ([]uint64, error) {
	switch {
	case len(es) == 0:
		return nil, nil
	case len(es) > MaxAtomic:
		return nil, fmt.Errorf("%w: %d events in one atomic append, the limit is %d", ErrTooLarge, len(es), MaxAtomic)
	}
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, atomicTimeout)
		defer cancel()
	}
	// Every event is checked and encoded before the first goes out: a bad
	// one refuses the batch without leaving a partial one on the leader.
	msgs := make([]*nats.Msg, len(es))
	for i, en := range es {
		msg, err := l.message(ctx, en.Event)
		if err != nil {
			return nil, fmt.Errorf("event %d: %w", i, err)
		}
		msg.Header.Set(jetstream.MsgIDHeader, en.Event.ID)
		msg.Header.Set(jetstream.ExpectedStreamHeader, l.cfg.Stream)
		if en.New {
			msg.Header.Set(jetstream.ExpectedLastSubjSeqHeader, "0")
		}
		msgs[i] = msg
	}
	return l.publishAtomic(ctx, msgs)
}

// publishAtomic sends msgs (each with its message id and expectations
// set) as one atomic batch and returns their revisions.
func (l *Log) publishAtomic(ctx context.Context, msgs []*nats.Msg) ([]uint64, error) {
	batch := nuid.Next()
	for i, msg := range msgs {
		msg.Header.Set(batchIDHeader, batch)
		msg.Header.Set(batchSeqHeader, strconv.Itoa(i+1))
	}
	appendRequests.Inc()
	last := msgs[len(msgs)-1]
	for i, msg := range msgs[:len(msgs)-1] {
		if err := l.nc.PublishMsg(msg); err != nil {
			return nil, fmt.Errorf("eventlog: atomic append event %d: %w", i, err)
		}
	}
	last.Header.Set(batchCommitHeader, "1")
	resp, err := l.nc.RequestMsgWithContext(ctx, last)
	if err != nil {
		return nil, fmt.Errorf("eventlog: atomic append commit: %w", err)
	}
	seq, err := l.batchAck(resp.Data, len(msgs))
	if err != nil {
		return nil, err
	}
	revs := make([]uint64, len(msgs))
	for j := range revs {
		revs[j] = seq - uint64(len(msgs)-1-j)
	}
	return revs, nil
}

// withoutBatch removes the atomic batch headers publishAtomic set, so the
// message can be published on its own.
func withoutBatch(msg *nats.Msg) {
	for _, h := range []string{batchIDHeader, batchSeqHeader, batchCommitHeader} {
		msg.Header.Del(h)
	}
}

// batchAck reads the leader's answer to a batch commit: the revision of
// its last event, or the reason the batch was refused.
func (l *Log) batchAck(data []byte, n int) (uint64, error) {
	var ack struct {
		Stream string `json:"stream"`
		Seq    uint64 `json:"seq"`
		Count  int    `json:"count"`
		Error  *struct {
			Code        int    `json:"code"`
			ErrCode     int    `json:"err_code"`
			Description string `json:"description"`
		} `json:"error"`
	}
	if err := json.Unmarshal(data, &ack); err != nil {
		return 0, fmt.Errorf("eventlog: atomic append: answer %q: %w", data, err)
	}
	if e := ack.Error; e != nil {
		if e.ErrCode == int(jetstream.JSErrCodeStreamWrongLastSequence) || e.ErrCode == int(jetstream.JSErrCodeStreamWrongLastSequenceConstant) {
			return 0, fmt.Errorf("%w: %s", ErrSubjectTaken, e.Description)
		}
		return 0, fmt.Errorf("eventlog: atomic append refused: %s (code %d)", e.Description, e.ErrCode)
	}
	if ack.Stream != l.cfg.Stream || ack.Count != n || ack.Seq < uint64(n) {
		return 0, fmt.Errorf("eventlog: atomic append: unexpected answer %s", data)
	}
	return ack.Seq, nil
}
