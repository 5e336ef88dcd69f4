package app

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/cmem/cmem/access"
	"github.com/cmem/cmem/events"
)

// EventLog is the part of the log the use cases write to and fence on.
type EventLog interface {
	// Append stores e and returns its revision. With exclusive, the append
	// fails with an error wrapping ErrConflict if e's subject already holds
	// an event.
	Append(ctx context.Context, e events.Envelope, exclusive bool) (uint64, error)
	// Head is the newest revision on subjects under filter ("" = any).
	Head(ctx context.Context, filter string) (uint64, error)
}

// AccessView is the access projection (implemented by *access.Graph).
type AccessView interface {
	Revision() uint64
	Access(user string, p access.Point) []access.AgentAccess
	User(id string) (access.User, bool)
	UserByToken(sum string) (access.User, bool)
	Agent(id string) (access.Agent, bool)
	Resource(id string) (access.Resource, bool)
}

// Freshness waits for the projections to reach a revision.
type Freshness interface {
	WaitFor(ctx context.Context, rev uint64) error
}

// Config tunes the use cases.
type Config struct {
	// AdminToken authenticates the bootstrap administrator.
	AdminToken string
	// ReadWait bounds how long a read waits for a projection to reach the
	// revision it needs (read fence or min_revision).
	ReadWait time.Duration
	// Source names this process in the events it writes.
	Source string
}

// Validate reports every problem with c.
func (c Config) Validate() error {
	var errs []error
	if len(c.AdminToken) < 16 {
		errs = append(errs, errors.New("app: AdminToken must be at least 16 characters"))
	}
	if c.ReadWait <= 0 {
		errs = append(errs, errors.New("app: ReadWait must be positive"))
	}
	if c.Source == "" {
		errs = append(errs, errors.New("app: Source is required"))
	}
	return errors.Join(errs...)
}

// App is the set of use cases over one log and its projections.
type App struct {
	cfg      Config
	log      EventLog
	view     AccessView
	fresh    Freshness
	adminSum string
}

// New returns an App; cfg must be valid.
func New(cfg Config, log EventLog, view AccessView, fresh Freshness) (*App, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	return &App{cfg: cfg, log: log, view: view, fresh: fresh, adminSum: TokenSum(cfg.AdminToken)}, nil
}

// meta builds event metadata for a command by id.
func (a *App) meta(ctx context.Context, id Identity) events.Meta {
	return events.Meta{Source: a.cfg.Source, Actor: id.ID, CorrelationID: CorrelationID(ctx)}
}

// append wraps payload and stores it.
func (a *App) append(ctx context.Context, id Identity, p events.Payload, exclusive bool) (uint64, error) {
	e, err := events.New(a.meta(ctx, id), p)
	if err != nil {
		return 0, err
	}
	return a.log.Append(ctx, e, exclusive)
}

// fence waits until the projections include every acknowledged event under
// filter and at least minRevision. Reading the head from the log leader
// before answering is what makes "a read that starts after a revoke was
// acknowledged never sees the graph before it" hold across gateways.
func (a *App) fence(ctx context.Context, filter string, minRevision uint64) error {
	head, err := a.log.Head(ctx, filter)
	if err != nil {
		return fmt.Errorf("%w: read fence: %w", ErrUnavailable, err)
	}
	return a.waitFor(ctx, max(head, minRevision))
}

func (a *App) waitFor(ctx context.Context, rev uint64) error {
	wctx, cancel := context.WithTimeout(ctx, a.cfg.ReadWait)
	defer cancel()
	if err := a.fresh.WaitFor(wctx, rev); err != nil {
		return fmt.Errorf("%w: projection has not reached revision %d within %s", ErrUnavailable, rev, a.cfg.ReadWait)
	}
	return nil
}

type ctxKey struct{}

// WithCorrelationID returns ctx carrying the correlation id of a request.
func WithCorrelationID(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, ctxKey{}, id)
}

// CorrelationID returns the correlation id carried by ctx, or "".
func CorrelationID(ctx context.Context) string {
	s, _ := ctx.Value(ctxKey{}).(string)
	return s
}
