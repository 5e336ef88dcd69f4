package app

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/cmem/cmem/domain"
	"github.com/cmem/cmem/embedding"
	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/llm"
	"github.com/cmem/cmem/projectors/access"
	"github.com/cmem/cmem/projectors/memory"
	"github.com/cmem/cmem/projectors/query"
	"github.com/cmem/cmem/resources"
	"github.com/cmem/cmem/vectors"
)

// EventLog is the part of the log the use cases write to and fence on.
type EventLog interface {
	// Append stores e and returns its revision. With exclusive, the append
	// fails with an error wrapping domain.ErrConflict if e's subject already holds
	// an event.
	Append(ctx context.Context, e events.Envelope, exclusive bool) (uint64, error)
	// Head is the newest revision on subjects under filter ("" = any).
	Head(ctx context.Context, filter string) (uint64, error)
	// AppendAll stores es all or nothing, at consecutive revisions, which
	// it returns in order; an Exclusive event whose subject is taken fails
	// it with an error wrapping domain.ErrConflict.
	AppendAll(ctx context.Context, es []Staged) ([]uint64, error)
}

// AccessView is the access projection (implemented by *access.Graph).
type AccessView interface {
	Revision() uint64
	Access(user string, p access.Point) []access.AgentAccess
	User(id string) (access.User, bool)
	UserByToken(sum string) (access.User, bool)
	Agent(id string) (access.Agent, bool)
	Resource(id string) (access.Resource, bool)
	Agents(user string, p access.Point) []string
	Resources(agent string, p access.Point) []string
	CanInvoke(user, agent string, p access.Point) bool
	CanUse(agent, resource string, p access.Point) bool
	Admissible(user, agent string, prov access.Provenance, p access.Point) bool
	Admits(r access.Reader, prov access.Provenance, p access.Point) access.Verdict
	AgentIDs() []string
	ResourceIDs() []string
	UserIDs() []string
}

// Freshness waits for the projections to reach a revision.
type Freshness interface {
	WaitFor(ctx context.Context, rev uint64) error
}

// PolicyView is the policy projection (implemented by *memory.Policies).
type PolicyView interface {
	Resolve(target, user, agent string, t time.Time) memory.Policy
	List() []memory.Policy
}

// FragmentRegistry is the registry of written fragments (*memory.Fragments).
type FragmentRegistry interface {
	Get(id string) (memory.FragmentInfo, bool)
	// OfUser and DerivedFrom find what an erasure reaches.
	OfUser(user string) []string
	DerivedFrom(ids []string) []string
	// SameFactAs, Versions and HasVersions are the versions of facts
	// (supersede.go, current.go).
	SameFactAs(f memory.FragmentInfo) []memory.FragmentInfo
	Versions(id string) []memory.FragmentInfo
	HasVersions() bool
	// ErasedValues are the hashes of the values erased from a scope in
	// conversation (governance_erase.go).
	ErasedValues(scope string) map[string]int
	// ObservedNear lists the fragments observed within a window of one,
	// unchecked: the view re-checks each (rescore_near.go).
	ObservedNear(id string, window time.Duration) []memory.FragmentInfo
}

// QueryView is the pipeline's query projection (*query.Projection).
type QueryView interface {
	Get(id string) (query.Query, bool)
	// OfUser and ThatRead find the queries an erasure reaches.
	OfUser(user string) []string
	ThatRead(fragments []string) []query.Query
	Wait(ctx context.Context, id string) (query.Query, bool)
}

// QueryArchive rebuilds a finished query that has left the in-memory
// projection from its events in the log.
type QueryArchive interface {
	Load(ctx context.Context, id string) (query.Query, bool, error)
}

// Deps are the parts the use cases run on. Fresh waits for the projections
// fed by the main runner (access graph, policies, fragment registry);
// ViewFresh for the vector view, which may be fed by its own runner.
type Deps struct {
	Log       EventLog
	Access    AccessView
	Fresh     Freshness
	Policies  PolicyView
	Fragments FragmentRegistry
	Store     vectors.Store
	ViewFresh Freshness
	Embedder  embedding.Embedder
	LLM       llm.Provider
	Queries   QueryView
	// Archive, optional, serves queries evicted from Queries.
	Archive QueryArchive
	// Feed serves the live event stream; optional (nil: LiveEvents
	// answers domain.ErrUnavailable).
	Feed LiveFeed
	// Keys destroys data keys (*shred.Keyring); nil when content is
	// written in clear, and then an erasure only reaches the projections.
	Keys Shredder
	// Graph is graph memory (*graphmem.Projection), fed by the main
	// runner; optional (nil: GraphMemory answers domain.ErrUnavailable and agent
	// turns read no graph memory).
	Graph GraphMemory
	// Reranker, optional, re-orders the shared tier of memory views with
	// what the pool taught it (*rerank.Model); nil ranks by similarity.
	Reranker Reranker
}

func (d Deps) validate() error {
	var errs []error
	for name, v := range map[string]any{
		"Log": d.Log, "Access": d.Access, "Fresh": d.Fresh, "Policies": d.Policies, "Fragments": d.Fragments,
		"Store": d.Store, "ViewFresh": d.ViewFresh, "Embedder": d.Embedder, "LLM": d.LLM, "Queries": d.Queries,
	} {
		if v == nil {
			errs = append(errs, fmt.Errorf("app: Deps.%s is required", name))
		}
	}
	return errors.Join(errs...)
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
	// Resources configures how registered resources become tools.
	Resources resources.Options
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
	if err := c.Resources.Validate(); err != nil {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// App is the set of use cases over one log and its projections.
type App struct {
	cfg       Config
	log       EventLog
	view      AccessView
	fresh     Freshness
	policies  PolicyView
	fragments FragmentRegistry
	store     vectors.Store
	viewFresh Freshness
	embedder  embedding.Embedder
	llm       llm.Provider
	queries   QueryView
	archive   QueryArchive
	feed      LiveFeed
	keys      Shredder
	graph     GraphMemory
	rerank    Reranker
	adminSum  string
	threads   *threads // each conversation thread's last decisions (conversation_thread.go)
}

// New returns an App; cfg must be valid and every dependency set.
func New(cfg Config, d Deps) (*App, error) {
	if err := errors.Join(cfg.Validate(), d.validate()); err != nil {
		return nil, err
	}
	return &App{
		cfg: cfg, log: d.Log, view: d.Access, fresh: d.Fresh, policies: d.Policies, fragments: d.Fragments,
		store: d.Store, viewFresh: d.ViewFresh, embedder: d.Embedder, llm: d.LLM, queries: d.Queries, archive: d.Archive, feed: d.Feed, keys: d.Keys,
		graph: d.Graph, rerank: d.Reranker,
		adminSum: TokenSum(cfg.AdminToken), threads: &threads{},
	}, nil
}

// meta builds event metadata for a command by id.
func (a *App) meta(ctx context.Context, id domain.Identity) events.Meta {
	return events.Meta{Source: a.cfg.Source, Actor: id.ID, CorrelationID: CorrelationID(ctx)}
}

// append wraps payload and stores it.
func (a *App) append(ctx context.Context, id domain.Identity, p events.Payload, exclusive bool) (uint64, error) {
	return a.appendStep(ctx, id, p, exclusive, "")
}

// appendStep is append with the event id derived from a worker's step (see
// events.Meta.ID); an empty step gets a fresh id.
func (a *App) appendStep(ctx context.Context, id domain.Identity, p events.Payload, exclusive bool, step string) (uint64, error) {
	m := a.meta(ctx, id)
	m.ID = step
	e, err := events.New(m, p)
	if err != nil {
		return 0, err
	}
	return a.log.Append(ctx, e, exclusive)
}

// appendAt is appendStep (not exclusive) with the event's time set to at
// (zero = now): a decision judged at a wall clock records that clock, so
// the audit can judge it at the same instant.
func (a *App) appendAt(ctx context.Context, id domain.Identity, p events.Payload, step string, at time.Time) (uint64, error) {
	m := a.meta(ctx, id)
	m.ID, m.Time = step, at
	e, err := events.New(m, p)
	if err != nil {
		return 0, err
	}
	return a.log.Append(ctx, e, false)
}

// fence waits until the projections include every acknowledged event under
// filter and at least minRevision. Reading the head from the log leader
// before answering is what makes "a read that starts after a revoke was
// acknowledged never sees the graph before it" hold across gateways.
func (a *App) fence(ctx context.Context, filter string, minRevision uint64) error {
	head, err := a.log.Head(ctx, filter)
	if err != nil {
		return fmt.Errorf("%w: read fence: %w", domain.ErrUnavailable, err)
	}
	return a.waitFor(ctx, max(head, minRevision))
}

func (a *App) waitFor(ctx context.Context, rev uint64) error {
	return a.waitOn(ctx, a.fresh, rev)
}

func (a *App) waitOn(ctx context.Context, f Freshness, rev uint64) error {
	wctx, cancel := context.WithTimeout(ctx, a.cfg.ReadWait)
	defer cancel()
	if err := f.WaitFor(wctx, rev); err != nil {
		return fmt.Errorf("%w: projection has not reached revision %d within %s", domain.ErrUnavailable, rev, a.cfg.ReadWait)
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
