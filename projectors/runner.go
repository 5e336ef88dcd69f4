package projectors

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/events/eventlog"
)

// Projection is a read model fed from the log in order. Apply must be
// idempotent by revision: records at or below what it has seen are ignored.
// The payload Record.Decode returns is decoded once and shared by every
// projection of the runner: Apply reads it and never changes it (it copies
// a slice before changing it).
type Projection interface {
	// Name is stable: it names the projection's dead-letter subject.
	Name() string
	Apply(events.Record) error
}

// Flusher is a projection that buffers in Apply and writes in Flush (e.g. a
// batch to an external store). The runner flushes at the end of every
// batch before it reports the batch as applied; when Flush fails it calls
// Discard and replays the batch, so nothing is skipped.
type Flusher interface {
	Flush(ctx context.Context) error
	Discard()
}

// Source is the part of the log a Runner reads.
type Source interface {
	Follow(ctx context.Context, from uint64, fn func(eventlog.Msg) error) error
	DeadLetter(ctx context.Context, consumer string, m eventlog.Msg, reason string) error
}

// Opener opens the sealed content of an event (implemented by
// *eventlog.Log): a field whose key was destroyed opens to events.Erased.
// A Source that implements it has its events opened before any projection
// sees them.
type Opener interface {
	Open(ctx context.Context, e events.Envelope) (events.Envelope, error)
}

// PayloadOpener is an Opener that also returns the payload it opened
// when that is exactly what decoding the opened data gives (implemented
// by *eventlog.Log): the runner then does not decode the event again.
type PayloadOpener interface {
	OpenPayload(ctx context.Context, e events.Envelope) (events.Envelope, events.Payload, error)
}

// Runner feeds projections from a Source.
type Runner struct {
	src         Source
	validator   *events.Validator
	projections []Projection
	logger      *slog.Logger
	opener      Opener
	name        string // the runner label of its metrics

	revision atomic.Uint64
	// applying is held while a batch is applied: Hold takes it to see
	// every projection at one revision.
	applying   sync.Mutex
	afterBatch func(ctx context.Context, revision uint64)
	mu         sync.Mutex
	changed    chan struct{} // closed and replaced when the revision moves and someone waits
	waiting    atomic.Int32
}

// NewRunner returns a runner for projections; call Run to start it.
func NewRunner(src Source, logger *slog.Logger, projections ...Projection) (*Runner, error) {
	v, err := events.DefaultValidator()
	if err != nil {
		return nil, err
	}
	logger = cmp.Or(logger, slog.Default())
	r := &Runner{src: src, validator: v, projections: projections, logger: logger, name: "core", changed: make(chan struct{})}
	r.opener, _ = src.(Opener)
	return r, nil
}

// Named sets the runner label of r's metrics (default "core"); call it
// before Run.
func (r *Runner) Named(name string) *Runner {
	r.name = name
	return r
}

// Run follows the log until ctx ends. A broken subscription (a cluster
// failover, a lost connection) is resumed after the last applied revision.
func (r *Runner) Run(ctx context.Context) error {
	backoff := 100 * time.Millisecond
	for {
		before := r.revision.Load()
		err := r.follow(ctx)
		if ctx.Err() != nil {
			return nil
		}
		if r.revision.Load() > before {
			backoff = 100 * time.Millisecond
		}
		r.logger.Warn("projection runner interrupted; resuming", "revision", r.revision.Load(), "err", err)
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(backoff):
		}
		backoff = min(2*backoff, 5*time.Second)
	}
}

func (r *Runner) handleBatch(ctx context.Context, batch []parsed) error {
	r.applying.Lock()
	defer r.applying.Unlock()
	traced := r.traceApplied(ctx, batch)
	defer func() {
		for _, s := range traced {
			s.End()
		}
	}()
	for _, p := range batch {
		if err := r.handle(p); err != nil {
			return err
		}
	}
	for _, p := range r.projections {
		f, ok := p.(Flusher)
		if !ok {
			continue
		}
		if err := f.Flush(ctx); err != nil {
			for _, p := range r.projections {
				if f, ok := p.(Flusher); ok {
					f.Discard()
				}
			}
			return fmt.Errorf("projectors: flush %s: %w", p.Name(), err)
		}
	}
	last := batch[len(batch)-1].msg
	projectionLag.WithLabelValues(r.name).Set(float64(last.Pending))
	r.advance(last.Revision)
	if r.afterBatch != nil {
		r.afterBatch(ctx, last.Revision)
	}
	return nil
}

func (r *Runner) handle(pm parsed) error {
	m := pm.msg
	if m.Revision <= r.revision.Load() {
		return nil
	}
	if pm.openErr != nil {
		// A key store that cannot answer is retried, never taken for
		// erasure: Run resumes from this event.
		return fmt.Errorf("projectors: open revision %d: %w", m.Revision, pm.openErr)
	}
	if pm.err != nil {
		for _, p := range r.projections {
			if err := r.deadLetter(p.Name(), m, pm.err); err != nil {
				return err
			}
		}
	} else {
		rec := events.Record{Envelope: pm.env, Revision: m.Revision}.WithPayload(pm.payload)
		for _, p := range r.projections {
			if aerr := p.Apply(rec); aerr != nil {
				if err := r.deadLetter(p.Name(), m, aerr); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

func (r *Runner) deadLetter(consumer string, m eventlog.Msg, reason error) error {
	deadLetters.WithLabelValues(consumer).Inc()
	r.logger.Warn("dead letter", "consumer", consumer, "revision", m.Revision, "subject", m.Subject, "reason", reason)
	// A dead letter that cannot be recorded must not be skipped silently:
	// returning the error makes Run resume from this event.
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := r.src.DeadLetter(ctx, consumer, m, reason.Error()); err != nil {
		return fmt.Errorf("projectors: record dead letter: %w", err)
	}
	return nil
}

func (r *Runner) advance(rev uint64) {
	r.revision.Store(rev)
	projectedRevision.WithLabelValues(r.name).Set(float64(rev))
	if r.waiting.Load() == 0 {
		return
	}
	r.mu.Lock()
	close(r.changed)
	r.changed = make(chan struct{})
	r.mu.Unlock()
}

// StartAfter makes Run begin after rev instead of at the beginning, for
// projections kept outside the process that are already complete up to
// rev. Call it before Run.
func (r *Runner) StartAfter(rev uint64) { r.revision.Store(rev) }

// Revision is the revision of the last event every projection has seen.
func (r *Runner) Revision() uint64 { return r.revision.Load() }

// ErrNotReached is returned by WaitFor when ctx ends before the projections
// reach the revision.
var ErrNotReached = errors.New("projectors: revision not reached")

// WaitFor blocks until every projection has applied rev, or ctx ends.
func (r *Runner) WaitFor(ctx context.Context, rev uint64) error {
	if r.revision.Load() >= rev {
		return nil
	}
	r.waiting.Add(1)
	defer r.waiting.Add(-1)
	for {
		r.mu.Lock()
		ch := r.changed
		r.mu.Unlock()
		// Checked after taking ch: an advance between the two reads closes
		// the channel we hold, so no wake-up is lost.
		if r.revision.Load() >= rev {
			return nil
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return fmt.Errorf("%w: at %d, want %d: %w", ErrNotReached, r.revision.Load(), rev, ctx.Err())
		}
	}
}
