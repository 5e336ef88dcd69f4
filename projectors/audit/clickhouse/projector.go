package clickhouse

import (
	"context"
	"fmt"
	"log/slog"
	"sync/atomic"
	"time"

	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/events/eventlog"
)

// Source is the part of the log the projector reads (*eventlog.Log).
type Source interface {
	Follow(ctx context.Context, from uint64, fn func(eventlog.Msg) error) error
	Head(ctx context.Context, filter string) (uint64, error)
}

// Projector copies every event of the log into the Store. It runs on its
// own ordered consumer, so neither the log nor the in-memory projections
// ever wait for ClickHouse.
type Projector struct {
	cfg       Config
	src       Source
	store     *Store
	validator *events.Validator
	logger    *slog.Logger

	fence    func(context.Context) error // nil: this process always writes
	revision atomic.Uint64               // highest revision known to be in ClickHouse
	lag      atomic.Int64                // last measured log head - revision; -1 before the first
}

// NewProjector returns a projector from src into store; call Run.
func NewProjector(cfg Config, src Source, store *Store, logger *slog.Logger) (*Projector, error) {
	cfg = cfg.WithDefaults()
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	v, err := events.DefaultValidator()
	if err != nil {
		return nil, err
	}
	if logger == nil {
		logger = slog.Default()
	}
	p := &Projector{cfg: cfg, src: src, store: store, validator: v, logger: logger}
	p.lag.Store(-1)
	return p, nil
}

// Revision is the highest revision the projector has seen stored.
func (p *Projector) Revision() uint64 { return p.revision.Load() }

// Lag is the last measured number of events on the log and not yet in
// ClickHouse, or -1 before the first measurement.
func (p *Projector) Lag() int64 { return p.lag.Load() }

// Run projects until ctx ends. Any failure (ClickHouse down, a broken
// subscription) ends the session; the next one starts after a backoff from
// what ClickHouse actually holds, so whatever was buffered and unwritten is
// simply read from the log again.
func (p *Projector) Run(ctx context.Context) error {
	go p.measureLag(ctx)
	backoff := p.cfg.RetryMin
	for {
		start := time.Now()
		err := p.session(ctx)
		if ctx.Err() != nil {
			return nil
		}
		sessionFailures.Inc()
		if time.Since(start) > p.cfg.RetryMax {
			backoff = p.cfg.RetryMin // the session worked for a while: a fresh failure
		}
		p.logger.Warn("audit projector interrupted; retrying", "revision", p.revision.Load(), "in", backoff, "err", err)
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(backoff):
		}
		backoff = min(2*backoff, p.cfg.RetryMax)
	}
}

func (p *Projector) session(parent context.Context) error {
	if err := p.store.Ensure(parent); err != nil {
		return err
	}
	rev, err := p.store.Revision(parent)
	if err != nil {
		return err
	}
	p.setRevision(rev)
	ctx, cancel := context.WithCancelCause(parent)
	defer cancel(nil)
	chunks, converted := p.convert(ctx, cancel, rev+1)
	err = p.write(ctx, chunks)
	cancel(err)
	<-converted
	return err
}

// write batches the converted chunks and flushes when a batch is full or
// FlushInterval after its first event, whichever comes first; or as soon
// as the reader has caught up with the log if the batch already holds a
// tenth of BatchSize, so that the end of a catch-up is not held back by
// the interval while a quiet log is still written in batches, not event
// by event.
func (p *Projector) write(ctx context.Context, chunks <-chan *chunk) error {
	b := &batch{}
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	defer timer.Stop()
	flush := func() error {
		timer.Stop()
		if b.len() == 0 {
			return nil
		}
		if err := p.flush(ctx, b); err != nil {
			return err
		}
		b.reset()
		return nil
	}
	for {
		select {
		case <-ctx.Done():
			return context.Cause(ctx)
		case <-timer.C:
			if err := flush(); err != nil {
				return err
			}
		case c := <-chunks:
			select {
			case <-c.done:
			case <-ctx.Done():
				return context.Cause(ctx)
			}
			if b.len() == 0 {
				timer.Reset(p.cfg.FlushInterval)
			}
			b.merge(&c.rows)
			caughtUp := c.caughtUp
			c.release() // c is the pool's from here on
			if b.len() >= p.cfg.BatchSize || (caughtUp && b.len() >= max(p.cfg.BatchSize/10, 1)) {
				if err := flush(); err != nil {
					return err
				}
			}
		}
	}
}

func (p *Projector) flush(ctx context.Context, b *batch) error {
	wctx, cancel := context.WithTimeout(ctx, p.cfg.WriteTimeout)
	defer cancel()
	// The fence: a process whose lease ended writes nothing more (see
	// RunLeased); the session ends, and the holder resumes from what
	// ClickHouse holds.
	if p.fence != nil {
		if err := p.fence(wctx); err != nil {
			return fmt.Errorf("audit: flush up to revision %d: %w", b.last, err)
		}
	}
	if err := p.store.write(wctx, b); err != nil {
		return fmt.Errorf("audit: flush up to revision %d: %w", b.last, err)
	}
	for _, t := range typedTableList {
		rowsWritten.WithLabelValues(t.name).Add(float64(t.rows(b)))
	}
	rowsWritten.WithLabelValues("events").Add(float64(b.len()))
	p.setRevision(b.last)
	return nil
}

func (p *Projector) setRevision(rev uint64) {
	p.revision.Store(rev)
	auditRevision.Set(float64(rev))
}

// measureLag keeps the lag gauge current, also while ClickHouse is down,
// which is when it matters.
func (p *Projector) measureLag(ctx context.Context) {
	t := time.NewTicker(p.cfg.LagInterval)
	defer t.Stop()
	for {
		hctx, cancel := context.WithTimeout(ctx, p.cfg.LagInterval)
		head, err := p.src.Head(hctx, "")
		cancel()
		if err == nil {
			lag := int64(head) - int64(p.revision.Load())
			lag = max(lag, 0)
			p.lag.Store(lag)
			lagEvents.Set(float64(lag))
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}
