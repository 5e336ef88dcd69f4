package workers

import (
	"context"
	"log/slog"
	"sync"

	"github.com/cmem/cmem/access"
	"github.com/cmem/cmem/app"
	"github.com/cmem/cmem/embed"
	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/llm"
	"github.com/cmem/cmem/memory"
	"github.com/cmem/cmem/query"
	"github.com/cmem/cmem/resources"
)

// Memory is what a worker does through the use cases, as the user it
// serves: fence on permissions, read a memory view, write fragments.
type Memory interface {
	AuthzFence(ctx context.Context) (access.Point, error)
	MemoryView(ctx context.Context, by app.Identity, req app.ViewRequest) (app.ViewAnswer, error)
	WriteFragment(ctx context.Context, by app.Identity, req app.WriteRequest) (app.WriteAnswer, error)
}

// Access is the access projection as the workers read it.
type Access interface {
	Agents(user string, p access.Point) []string
	Resources(agent string, p access.Point) []string
	CanInvoke(user, agent string, p access.Point) bool
	CanUse(agent, resource string, p access.Point) bool
	Agent(id string) (access.Agent, bool)
	Resource(id string) (access.Resource, bool)
}

// Log is where stages append their events.
type Log interface {
	Append(ctx context.Context, e events.Envelope, exclusive bool) (uint64, error)
}

// Freshness waits for this process's projections to reach a revision.
type Freshness interface {
	WaitFor(ctx context.Context, rev uint64) error
}

// Fragments is the fragment registry (for the provenance of history).
type Fragments interface {
	Get(id string) (memory.FragmentInfo, bool)
}

// Deps are the parts a pipeline runs on.
type Deps struct {
	Memory    Memory
	Access    Access
	Log       Log
	Fresh     Freshness
	Queries   *query.Projection
	Fragments Fragments
	LLM       llm.Provider
	// Embedder measures what agents can reach for the coordinator
	// (AgentCard.Reach); nil leaves Reach unknown (0).
	Embedder  embed.Embedder
	Resources resources.Options
	// Bus publishes answers to callers waiting on NATS; nil publishes none.
	Bus    Publisher
	Logger *slog.Logger
}

// Pipeline is the coordinator, agent runtime and aggregator.
type Pipeline struct {
	cfg Config
	Deps
	tools sync.Map // resource id + registration revision -> resources.Tool
}

// NewPipeline returns a pipeline; cfg zero fields take defaults.
func NewPipeline(cfg Config, d Deps) (*Pipeline, error) {
	cfg.setDefaults()
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if d.Logger == nil {
		d.Logger = slog.Default()
	}
	return &Pipeline{cfg: cfg, Deps: d}, nil
}

// Config returns the effective configuration.
func (p *Pipeline) Config() Config { return p.cfg }

// emit appends a pipeline event with a step-derived id and the query id as
// correlation id.
func (p *Pipeline) emit(ctx context.Context, q query.Query, causation, step string, payload events.Payload) error {
	e, err := events.New(events.Meta{
		ID: step, Source: "cmem/worker", Actor: q.User, CorrelationID: q.ID, CausationID: causation,
	}, payload)
	if err != nil {
		return err
	}
	_, err = p.Log.Append(ctx, e, false)
	return err
}
