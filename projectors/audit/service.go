package audit

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/cmem/cmem/domain"
	"github.com/cmem/cmem/events"
)

// ServiceConfig tunes the audit use cases.
type ServiceConfig struct {
	// ReadWait bounds how long a question with min_revision waits for the
	// backend to reach it.
	ReadWait time.Duration
	// Poll is how often that wait looks again.
	Poll time.Duration
}

// Validate reports every problem with c.
func (c ServiceConfig) Validate() error {
	var errs []error
	if c.ReadWait <= 0 {
		errs = append(errs, errors.New("audit: ReadWait must be positive"))
	}
	if c.Poll <= 0 {
		errs = append(errs, errors.New("audit: Poll must be positive"))
	}
	return errors.Join(errs...)
}

// Service holds the audit use cases over one Backend. Every question is
// for admins only.
type Service struct {
	cfg     ServiceConfig
	backend Backend
	clock   func() time.Time
}

// NewService returns the use cases over b.
func NewService(cfg ServiceConfig, b Backend) (*Service, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	return &Service{cfg: cfg, backend: b, clock: time.Now}, nil
}

// Backend is what the service answers from.
func (s *Service) Backend() Backend { return s.backend }

// VisibleQuery asks for M(User, Agent, At); At nil means now.
type VisibleQuery struct {
	User, Agent string
	At          *time.Time
	MinRevision uint64
}

// VisibleAnswer is M(u,a,t) with the revision the trail was at.
type VisibleAnswer struct {
	Fragments []string  `json:"fragments"`
	User      string    `json:"user"`
	Agent     string    `json:"agent"`
	At        time.Time `json:"at"`
	Revision  uint64    `json:"revision"`
}

// WindowQuery bounds a report by event time: From inclusive, To exclusive,
// nil unbounded.
type WindowQuery struct {
	From, To    *time.Time
	MinRevision uint64
}

// MetricsQuery is a report over a window in bins of Bin (default 1h).
type MetricsQuery struct {
	WindowQuery
	Bin time.Duration
}

// DefaultBin is the metrics bin when none is asked for.
const DefaultBin = time.Hour

// Visible answers what (user, agent) could have been served at a time.
func (s *Service) Visible(ctx context.Context, by domain.Identity, q VisibleQuery) (VisibleAnswer, error) {
	if err := admin(by); err != nil {
		return VisibleAnswer{}, err
	}
	for _, p := range [...]struct{ name, id string }{{"user", q.User}, {"agent", q.Agent}} {
		if err := events.CheckID(p.id); err != nil {
			return VisibleAnswer{}, fmt.Errorf("%w: %s: %w", ErrBadQuery, p.name, err)
		}
	}
	rev, err := s.fresh(ctx, q.MinRevision)
	if err != nil {
		return VisibleAnswer{}, err
	}
	at := s.clock()
	if q.At != nil {
		at = *q.At
	}
	ids, err := s.backend.Visible(ctx, q.User, q.Agent, at)
	if err != nil {
		return VisibleAnswer{}, err
	}
	return VisibleAnswer{Fragments: nonNil(ids), User: q.User, Agent: q.Agent, At: at.UTC(), Revision: rev}, nil
}

// Reads lists every read of a fragment with its verdict.
func (s *Service) Reads(ctx context.Context, by domain.Identity, fragment string, minRevision uint64) ([]Read, error) {
	if err := admin(by); err != nil {
		return nil, err
	}
	if err := events.CheckID(fragment); err != nil {
		return nil, fmt.Errorf("%w: fragment: %w", ErrBadQuery, err)
	}
	if _, err := s.fresh(ctx, minRevision); err != nil {
		return nil, err
	}
	out, err := s.backend.Reads(ctx, fragment)
	return nonNilReads(out), err
}

// Deliveries lists every delivery of a query with its verdict.
func (s *Service) Deliveries(ctx context.Context, by domain.Identity, query string, minRevision uint64) ([]Read, error) {
	if err := admin(by); err != nil {
		return nil, err
	}
	if err := events.CheckID(query); err != nil {
		return nil, fmt.Errorf("%w: query: %w", ErrBadQuery, err)
	}
	if _, err := s.fresh(ctx, minRevision); err != nil {
		return nil, err
	}
	out, err := s.backend.Deliveries(ctx, query)
	return nonNilReads(out), err
}

// Violations lists every read and delivery in the window that was not
// admissible.
func (s *Service) Violations(ctx context.Context, by domain.Identity, q WindowQuery) ([]Read, error) {
	w, err := s.window(ctx, by, q)
	if err != nil {
		return nil, err
	}
	out, err := s.backend.Violations(ctx, w)
	return nonNilReads(out), err
}

// Metrics reports the paper's metrics over the window.
func (s *Service) Metrics(ctx context.Context, by domain.Identity, q MetricsQuery) (Metrics, error) {
	if q.Bin == 0 {
		q.Bin = DefaultBin
	}
	if q.Bin < time.Second {
		return Metrics{}, fmt.Errorf("%w: bin must be at least 1s, got %s", ErrBadQuery, q.Bin)
	}
	w, err := s.window(ctx, by, q.WindowQuery)
	if err != nil {
		return Metrics{}, err
	}
	rev, err := s.backend.Revision(ctx)
	if err != nil {
		return Metrics{}, err
	}
	m, err := s.backend.Metrics(ctx, w, q.Bin)
	if err != nil {
		return Metrics{}, err
	}
	m.From, m.To, m.Bin, m.Revision = utc(q.From), utc(q.To), q.Bin.String(), rev
	for i := range m.Queries {
		m.Queries[i].Agents = nonNil(m.Queries[i].Agents)
	}
	return m, nil
}

func (s *Service) window(ctx context.Context, by domain.Identity, q WindowQuery) (Window, error) {
	if err := admin(by); err != nil {
		return Window{}, err
	}
	w := AllTime()
	if q.From != nil {
		w.From = q.From.UnixNano()
	}
	if q.To != nil {
		w.To = q.To.UnixNano()
	}
	if w.To < w.From {
		return Window{}, fmt.Errorf("%w: to is before from", ErrBadQuery)
	}
	if _, err := s.fresh(ctx, q.MinRevision); err != nil {
		return Window{}, err
	}
	return w, nil
}

// fresh waits until the backend holds revision min and returns the
// revision it is at. While waiting, a backend that cannot answer yet (a
// ClickHouse whose migrations the projector is still applying, or that is
// briefly down) is asked again until the wait ends.
func (s *Service) fresh(ctx context.Context, minRevision uint64) (uint64, error) {
	wctx, cancel := context.WithTimeout(ctx, s.cfg.ReadWait)
	defer cancel()
	for {
		rev, err := s.backend.Revision(wctx)
		if err == nil && rev >= minRevision {
			return rev, nil
		}
		if err != nil && minRevision == 0 {
			return 0, err
		}
		select {
		case <-wctx.Done():
			if err != nil {
				return 0, err
			}
			return 0, fmt.Errorf("%w: at revision %d, want %d within %s", ErrNotFresh, rev, minRevision, s.cfg.ReadWait)
		case <-time.After(s.cfg.Poll):
		}
	}
}

func admin(by domain.Identity) error {
	if !by.Admin {
		return fmt.Errorf("%w: the audit trail is for admins; %s is not one", domain.ErrForbidden, by.ID)
	}
	return nil
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func nonNilReads(r []Read) []Read {
	if r == nil {
		return []Read{}
	}
	return r
}

func utc(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	u := t.UTC()
	return &u
}
