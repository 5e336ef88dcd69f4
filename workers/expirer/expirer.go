package expirer

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/projectors/access"
)

// Graph is the part of the access projection the expirer reads
// (implemented by *access.Graph).
type Graph interface {
	DueBy(t time.Time) []access.Due
	NextExpiry() (time.Time, bool)
}

// Log appends an event only while the newest event on its subject is the
// one stored at revision last. It returns ErrSuperseded when that is no
// longer so (the grant was renewed, revoked or already expired).
type Log interface {
	AppendAfter(ctx context.Context, e events.Envelope, last uint64) (uint64, error)
}

// ErrSuperseded is returned by Log.AppendAfter when the subject moved on.
var ErrSuperseded = errors.New("expirer: the grant is no longer the newest event of its edge")

// Config tunes an Expirer.
type Config struct {
	// Source names this process in the events it writes.
	Source string
	// Poll bounds how long the expirer sleeps before looking again for
	// grants that appeared meanwhile (default 1s). An expiry that is known
	// is acted on at its instant, not at the next poll.
	Poll time.Duration
	// Clock is the wall clock (default time.Now).
	Clock func() time.Time
}

// WithDefaults returns c with its zero fields filled: Poll 1s, Clock
// time.Now.
func (c Config) WithDefaults() Config {
	c.Poll = cmp.Or(c.Poll, time.Second)
	if c.Clock == nil {
		c.Clock = time.Now
	}
	return c
}

// Validate reports every problem with c, its defaults filled.
func (c Config) Validate() error {
	c = c.WithDefaults()
	var errs []error
	if c.Source == "" {
		errs = append(errs, errors.New("expirer: Source is required"))
	}
	if c.Poll < 0 {
		errs = append(errs, errors.New("expirer: Poll must not be negative"))
	}
	return errors.Join(errs...)
}

// Expirer appends the expired event of every grant whose expiry passed.
type Expirer struct {
	cfg    Config
	graph  Graph
	log    Log
	logger *slog.Logger
	// sent holds the grants this process already appended an expiry for,
	// until the projection catches up with it.
	sent map[uint64]bool
}

// New returns an Expirer over graph and log.
func New(cfg Config, graph Graph, log Log, logger *slog.Logger) (*Expirer, error) {
	cfg = cfg.WithDefaults()
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if graph == nil || log == nil {
		return nil, errors.New("expirer: graph and log are required")
	}
	logger = cmp.Or(logger, slog.Default())
	return &Expirer{cfg: cfg, graph: graph, log: log, logger: logger, sent: map[uint64]bool{}}, nil
}

// Run ends due grants until ctx is done.
func (x *Expirer) Run(ctx context.Context) {
	for {
		if _, err := x.Once(ctx); err != nil && ctx.Err() == nil {
			x.logger.Warn("expirer: append failed; retrying", "err", err)
		}
		wait := x.cfg.Poll
		if next, ok := x.graph.NextExpiry(); ok {
			wait = min(wait, max(next.Sub(x.cfg.Clock()), time.Millisecond))
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(wait):
		}
	}
}

// Once appends the expired event of every grant due by now and returns how
// many are stored (by this call, or found stored by another process);
// grants renewed or revoked meanwhile are skipped.
func (x *Expirer) Once(ctx context.Context) (int, error) {
	due := x.graph.DueBy(x.cfg.Clock())
	pending := make(map[uint64]bool, len(due))
	var errs []error
	n := 0
	for _, d := range due {
		pending[d.GrantRevision] = true
		if x.sent[d.GrantRevision] {
			continue
		}
		stored, err := x.expire(ctx, d)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		x.sent[d.GrantRevision] = true
		if stored {
			n++
		}
	}
	for rev := range x.sent { // the projection has applied these
		if !pending[rev] {
			delete(x.sent, rev)
		}
	}
	return n, errors.Join(errs...)
}

// expire appends d's expired event and reports whether it is stored (by
// this call or another process); false when the grant was superseded.
func (x *Expirer) expire(ctx context.Context, d access.Due) (bool, error) {
	p := d.Payload()
	e, err := events.New(events.Meta{Source: x.cfg.Source, Actor: "expirer",
		ID: events.ExpiredEventID(p.EventSubject(), d.GrantRevision)}, p)
	if err != nil {
		return false, err
	}
	rev, err := x.log.AppendAfter(ctx, e, d.GrantRevision)
	switch {
	case errors.Is(err, ErrSuperseded):
		return false, nil // renewed or revoked meanwhile
	case err != nil:
		return false, fmt.Errorf("expire %s (grant at revision %d): %w", p.EventSubject(), d.GrantRevision, err)
	}
	expiredTotal.Inc()
	x.logger.Info("grant expired", "subject", p.EventSubject(), "grant_revision", d.GrantRevision,
		"expires_at", d.ExpiresAt, "revision", rev)
	return true, nil
}
