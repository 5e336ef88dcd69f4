package eventlog

import (
	"context"
	"fmt"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// Group commit: appends that carry no expectation (grants, revokes,
// fragments, pipeline events) and arrive while earlier ones are on their
// way to the leader are sent together as one atomic batch, so that N
// concurrent commands cost the leader one request and, with a server that
// syncs every write, one fsync instead of N. A caller still gets its own
// revision and error: a batch the leader refuses (a retried event id that
// is already stored makes the whole batch fail, as does a server without
// atomic publish) is sent again one event at a time. Appends with an
// expectation (ExpectNew, ExpectLast) always go alone, since one failed
// expectation would fail the others.

// groupCommitters is how many batches may be on their way at once.
const groupCommitters = 4

// groupTimeout bounds one batch's round trip; the callers' own contexts
// bound their wait.
const groupTimeout = 30 * time.Second

type pendingAppend struct {
	msg  *nats.Msg
	id   string
	done chan appendResult
}

type appendResult struct {
	rev uint64
	err error
}

// startGroupCommit runs the committers until stop is closed.
func (l *Log) startGroupCommit() {
	l.pending = make(chan *pendingAppend)
	l.stop = make(chan struct{})
	for range groupCommitters {
		l.committers.Go(l.commitLoop)
	}
}

// stopGroupCommit ends the committers once the batches they hold are sent.
func (l *Log) stopGroupCommit() {
	if l.stop == nil {
		return
	}
	l.stopOnce.Do(func() { close(l.stop) })
	l.committers.Wait()
}

// appendGrouped hands msg to a committer and waits for its revision.
func (l *Log) appendGrouped(ctx context.Context, msg *nats.Msg, id string) (uint64, error) {
	p := &pendingAppend{msg: msg, id: id, done: make(chan appendResult, 1)}
	select {
	case l.pending <- p:
	case <-ctx.Done():
		return 0, ctx.Err()
	case <-l.stop:
		return 0, fmt.Errorf("eventlog: append: %w", nats.ErrConnectionClosed)
	}
	select {
	case r := <-p.done:
		return r.rev, r.err
	case <-ctx.Done():
		// The committer still sends it; a retry with the same event id
		// is deduplicated.
		return 0, ctx.Err()
	}
}

// commitLoop takes the first waiting append, then every other one already
// waiting (up to MaxAtomic), and sends them.
func (l *Log) commitLoop() {
	for {
		var batch []*pendingAppend
		select {
		case p := <-l.pending:
			batch = append(batch, p)
		case <-l.stop:
			return
		}
	gather:
		for len(batch) < MaxAtomic {
			select {
			case p := <-l.pending:
				batch = append(batch, p)
			default:
				break gather
			}
		}
		l.commit(batch)
	}
}

func (l *Log) commit(batch []*pendingAppend) {
	ctx, cancel := context.WithTimeout(context.Background(), groupTimeout)
	defer cancel()
	if len(batch) > 1 {
		msgs := make([]*nats.Msg, len(batch))
		for i, p := range batch {
			p.msg.Header.Set(jetstream.MsgIDHeader, p.id)
			p.msg.Header.Set(jetstream.ExpectedStreamHeader, l.cfg.Stream)
			msgs[i] = p.msg
		}
		revs, err := l.publishAtomic(ctx, msgs)
		if err == nil {
			groupedAppends.Observe(float64(len(batch)))
			for i, p := range batch {
				p.done <- appendResult{rev: revs[i]}
			}
			return
		}
		l.logger.Debug("group commit refused; appending one at a time", "events", len(batch), "err", err)
		for _, p := range batch {
			withoutBatch(p.msg)
		}
	}
	for _, p := range batch {
		rev, err := l.publishRetried(ctx, p.msg, jetstream.WithMsgID(p.id), jetstream.WithExpectStream(l.cfg.Stream))
		p.done <- appendResult{rev: rev, err: err}
	}
}

// publishRetried is publishOne sent again while its answer is lost (see
// retryLost); only for appends without an expectation, whose event id
// makes a repeat answer the stored revision.
func (l *Log) publishRetried(ctx context.Context, msg *nats.Msg, opts ...jetstream.PublishOpt) (uint64, error) {
	appendRequests.Inc()
	ack, err := retryLost(ctx, func(ctx context.Context) (*jetstream.PubAck, error) { return l.js.PublishMsg(ctx, msg, opts...) })
	if err != nil {
		return 0, err
	}
	return ack.Sequence, nil
}

// publishOne is one acknowledged publish.
func (l *Log) publishOne(ctx context.Context, msg *nats.Msg, opts ...jetstream.PublishOpt) (uint64, error) {
	appendRequests.Inc()
	ack, err := l.js.PublishMsg(ctx, msg, opts...)
	if err != nil {
		return 0, err
	}
	return ack.Sequence, nil
}
