package snapshot

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"
)

// Holder runs fn while no event is being applied to the projections, with
// the revision they all applied (implemented by *projectors.Runner).
type Holder interface {
	Hold(fn func(revision uint64) error) error
}

// putTimeout bounds one snapshot's upload.
const putTimeout = 10 * time.Minute

// Writer takes snapshots of sections and puts them in a store.
type Writer struct {
	cfg      Config
	store    Store
	sealer   Sealer
	source   string
	logger   *slog.Logger
	sections []Section

	mu     sync.Mutex // serialises writes
	last   atomic.Uint64
	lastAt time.Time
	busy   atomic.Bool
	wg     sync.WaitGroup
}

// NewWriter returns a writer of sections into store; source names the
// process in the snapshots' headers.
func NewWriter(cfg Config, store Store, sealer Sealer, source string, logger *slog.Logger, sections ...Section) *Writer {
	if logger == nil {
		logger = slog.Default()
	}
	w := &Writer{cfg: cfg.WithDefaults(), store: store, sealer: sealer, source: source, logger: logger, sections: sections}
	w.lastAt = time.Now()
	return w
}

// From records that the projections start at revision (the snapshot they
// were restored from, 0 for a full rebuild): the next snapshot is due
// Every events after it.
func (w *Writer) From(revision uint64) { w.last.Store(revision) }

// AfterBatch is the runner's hook after every applied batch (the
// projections are still held): when a snapshot is due its sections are
// frozen here, which is quick, and marshalled, sealed and uploaded in the
// background once the hold is released. One snapshot is in flight at a
// time: a due one is skipped while another is being written.
func (w *Writer) AfterBatch(ctx context.Context, revision uint64) {
	if w.cfg.Every < 0 || revision < w.last.Load()+uint64(w.cfg.Every) || w.busy.Load() {
		return
	}
	if time.Since(w.lastAt) < w.cfg.MinPeriod {
		return
	}
	if !w.busy.CompareAndSwap(false, true) {
		return
	}
	c, err := w.freeze(ctx, revision)
	if err != nil {
		w.busy.Store(false)
		w.logger.Warn("snapshot not taken", "revision", revision, "err", err)
		return
	}
	w.wg.Add(1)
	go func() {
		defer w.wg.Done()
		defer w.busy.Store(false)
		// Bounded: a put whose acknowledgements never come must not keep
		// this process from ever taking another snapshot.
		pctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), putTimeout)
		defer cancel()
		if err := w.write(pctx, c); err != nil {
			w.logger.Warn("snapshot not stored", "revision", revision, "err", err)
		}
	}()
}

// Take captures a snapshot through h now and stores it before returning
// its revision (tests, and an operator's explicit checkpoint).
func (w *Writer) Take(ctx context.Context, h Holder) (uint64, error) {
	var c capture
	err := h.Hold(func(revision uint64) error {
		var err error
		c, err = w.freeze(ctx, revision)
		return err
	})
	if err != nil {
		return 0, err
	}
	return c.header.Revision, w.write(ctx, c)
}

// Wait waits for uploads in flight (call before closing the store).
func (w *Writer) Wait() { w.wg.Wait() }

// capture is every section frozen at one revision.
type capture struct {
	header Header
	names  []string
	frozen []Frozen
	start  time.Time
}

// freeze copies every section; the caller holds the projections.
func (w *Writer) freeze(ctx context.Context, revision uint64) (capture, error) {
	c := capture{header: Header{Revision: revision, TakenAt: time.Now().UTC(), Source: w.source}, start: time.Now()}
	for _, s := range w.sections {
		f, err := freeze(ctx, s, w.sealer)
		if err != nil {
			return capture{}, fmt.Errorf("snapshot: %s: %w", s.Name(), err)
		}
		c.names = append(c.names, s.Name())
		c.frozen = append(c.frozen, f)
	}
	if revision > w.last.Load() {
		w.last.Store(revision)
	}
	w.lastAt = time.Now()
	w.logger.Info("snapshot frozen", "revision", revision, "took", time.Since(c.start))
	return c, nil
}

// write marshals, encodes and stores c; writes never overlap.
func (w *Writer) write(ctx context.Context, c capture) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	parts := make(map[string][]byte, len(c.names))
	for i, f := range c.frozen {
		b, err := f(ctx, w.sealer)
		if err != nil {
			return fmt.Errorf("snapshot: %s: %w", c.names[i], err)
		}
		parts[c.names[i]] = b
	}
	blob := Encode(c.header, c.names, parts)
	w.logger.Info("snapshot captured", "revision", c.header.Revision, "bytes", len(blob), "took", time.Since(c.start))
	return w.put(ctx, c.header.Revision, blob)
}

func (w *Writer) put(ctx context.Context, revision uint64, blob []byte) error {
	start := time.Now()
	if err := w.store.Put(ctx, revision, blob); err != nil {
		return err
	}
	if err := w.store.Prune(ctx, w.cfg.Keep); err != nil {
		w.logger.Warn("old snapshots not pruned", "err", err)
	}
	w.logger.Info("snapshot stored", "revision", revision, "bytes", len(blob), "took", time.Since(start))
	return nil
}
