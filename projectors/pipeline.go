package projectors

import (
	"bytes"
	"context"
	"errors"
	"runtime"
	"sync"

	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/events/eventlog"
)

// batchSize is how many events are checked and applied as one batch; a
// partial batch goes as soon as the reader has caught up with the stream,
// so a quiet stream adds no latency.
const batchSize = 256

// parsed is a message with the outcome of its schema check.
type parsed struct {
	msg eventlog.Msg
	env events.Envelope
	// payload is the data decoded by the worker that checked it: every
	// projection of the runner shares it rather than decoding it again on
	// the applier, the one stage that runs one event at a time.
	payload events.Payload
	// err is why the event fails its schema (it is dead-lettered).
	err error
	// openErr is why its sealed content could not be opened (the key store
	// did not answer): the batch is retried, nothing is dead-lettered.
	openErr error
}

// checkBatch is a run of consecutive events, checked by a worker.
type checkBatch struct {
	items []parsed
	done  chan struct{} // closed when every item is checked
}

// follow runs one subscription as three stages: the reader takes messages
// off the ordered consumer and does nothing else, so the log is read as
// fast as a bare consumer reads it; GOMAXPROCS workers decode the
// envelopes, open sealed content and check the data against its schema,
// batch by batch, which is most of the work; the applier takes the batches
// in log order, waits for each to be checked and applies it. Only the
// applier touches the projections, so they still see one event at a time
// in log order.
func (r *Runner) follow(ctx context.Context) error {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	workers := runtime.GOMAXPROCS(0)
	ordered := make(chan *checkBatch, 4*workers)
	work := make(chan *checkBatch, 4*workers)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for b := range work {
				for i := range b.items {
					r.check(ctx, &b.items[i])
				}
				close(b.done)
			}
		}()
	}
	applied := make(chan struct{})
	go func() {
		defer close(applied)
		r.apply(ctx, cancel, ordered)
	}()
	cur := &checkBatch{items: make([]parsed, 0, batchSize), done: make(chan struct{})}
	err := r.src.Follow(ctx, r.revision.Load()+1, func(m eventlog.Msg) error {
		cur.items = append(cur.items, parsed{msg: m})
		if len(cur.items) < batchSize && m.Pending > 0 {
			return nil
		}
		// The applier takes batches in this order and waits for each.
		for _, ch := range []chan *checkBatch{ordered, work} {
			select {
			case ch <- cur:
			case <-ctx.Done():
				return context.Cause(ctx)
			}
		}
		cur = &checkBatch{items: make([]parsed, 0, batchSize), done: make(chan struct{})}
		return nil
	})
	close(ordered)
	close(work)
	<-applied
	wg.Wait()
	return err
}

// apply hands the checked batches to the projections in log order. A
// failure cancels ctx with its cause: Run resumes after the last applied
// event.
func (r *Runner) apply(ctx context.Context, cancel context.CancelCauseFunc, ordered <-chan *checkBatch) {
	defer func() {
		for range ordered { // unblock the reader
		}
	}()
	for b := range ordered {
		select {
		case <-b.done:
		case <-ctx.Done():
			return
		}
		if err := r.handleBatch(ctx, b.items); err != nil {
			cancel(err)
			return
		}
	}
}

// check decodes p's envelope, opens its sealed content and checks its
// data against the schema of its type and version. Opening comes before
// the data check: the schema holds plaintext.
func (r *Runner) check(ctx context.Context, p *parsed) {
	var checked bool
	if p.env, checked, p.err = r.validator.ParseEnvelopeChecking(p.msg.Data); p.err != nil {
		return
	}
	data := p.env.Data
	var opened events.Payload
	switch o := r.opener.(type) {
	case PayloadOpener:
		p.env, opened, p.openErr = o.OpenPayload(ctx, p.env)
	case Opener:
		p.env, p.openErr = o.Open(ctx, p.env)
	}
	if errors.Is(p.openErr, events.ErrInvalid) {
		// Content that can never open (malformed, tampered, not
		// decodable) is the event's fault, not the key store's:
		// retrying it would stop every projection behind it for good,
		// so it is dead-lettered like any event its schema rejects.
		p.err, p.openErr = p.openErr, nil
		return
	}
	if p.openErr != nil {
		return
	}
	// The data checked with the envelope is enough only when opening left
	// it as it was: opened content is checked as plaintext.
	if !checked || !bytes.Equal(p.env.Data, data) {
		if p.err = r.validator.CheckData(p.env); p.err != nil {
			return
		}
	}
	if opened != nil { // the payload the opener decoded is that of Data
		p.payload = opened
		return
	}
	// A payload that does not decode is left to the projections: each
	// decodes it, fails and dead-letters it as before.
	if pl, err := p.env.Decode(); err == nil {
		p.payload = pl
	}
}
