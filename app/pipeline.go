package app

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/projectors/query"
)

// PipelineConfig tunes the query pipeline's use cases. Zero fields take
// the defaults (WithDefaults).
type PipelineConfig struct {
	// MaxRounds bounds the coordinator's rounds per query.
	MaxRounds int
	// KUser and KCross are the memory view's tier sizes (paper: 10 and 10).
	KUser, KCross int
	// Coverage is the offline provider's memory-first threshold: an agent
	// whose best memory item scores at least this calls no resource. Zero
	// keeps the provider's default.
	Coverage float32
	// MaxToolCalls bounds the resource calls of one agent turn.
	MaxToolCalls int
	// StageTimeout bounds one stage (a coordinator decision, an agent turn,
	// the aggregation), provider calls included.
	StageTimeout time.Duration
	// QueryTimeout ends a query that has not finished this long after it
	// was submitted, with a QueryFailed event.
	QueryTimeout time.Duration
	// HistoryItems is how many earlier answered queries the coordinator is
	// shown (those still deliverable to the user).
	HistoryItems int
	// GraphItems is how many graph-memory items (insights, then key
	// interactions of similar past queries) an agent is shown beside its
	// memory view; 0 shows none (the default).
	GraphItems int
}

// WithDefaults returns c with its zero fields filled: MaxRounds 4, KUser
// and KCross 10, MaxToolCalls 3, HistoryItems 5, StageTimeout 60s,
// QueryTimeout 5m.
func (c PipelineConfig) WithDefaults() PipelineConfig {
	c.MaxRounds = cmp.Or(c.MaxRounds, 4)
	c.KUser = cmp.Or(c.KUser, 10)
	c.KCross = cmp.Or(c.KCross, 10)
	c.MaxToolCalls = cmp.Or(c.MaxToolCalls, 3)
	c.HistoryItems = cmp.Or(c.HistoryItems, 5)
	c.StageTimeout = cmp.Or(c.StageTimeout, 60*time.Second)
	c.QueryTimeout = cmp.Or(c.QueryTimeout, 5*time.Minute)
	return c
}

// Validate reports every problem with c, its defaults filled.
func (c PipelineConfig) Validate() error {
	c = c.WithDefaults()
	var errs []error
	if c.MaxRounds < 1 || c.MaxRounds > 32 {
		errs = append(errs, errors.New("app: MaxRounds must be within 1..32"))
	}
	if c.KUser < 0 || c.KUser > MaxK {
		errs = append(errs, fmt.Errorf("app: KUser must be within 0..%d", MaxK))
	}
	if c.KCross < 0 || c.KCross > MaxK {
		errs = append(errs, fmt.Errorf("app: KCross must be within 0..%d", MaxK))
	}
	if c.StageTimeout <= 0 {
		errs = append(errs, errors.New("app: StageTimeout must be positive"))
	}
	if c.GraphItems < 0 || c.GraphItems > MaxK {
		errs = append(errs, fmt.Errorf("app: GraphItems must be within 0..%d", MaxK))
	}
	if c.QueryTimeout < c.StageTimeout {
		errs = append(errs, errors.New("app: QueryTimeout must be at least StageTimeout"))
	}
	return errors.Join(errs...)
}

// QueryStates is the pipeline's read side of queries (*query.Projection).
type QueryStates interface {
	Get(id string) (query.Query, bool)
	History(user string, n int) []query.Query
	Pending(cutoff time.Time) []query.Query
}

// Pipeline holds the query pipeline's use cases: Coordinate, RunAgentTurn,
// Delivery and FailStale. Each stage takes one permission snapshot and
// decides on it; the transport that feeds them events (package workers)
// holds no logic of its own.
type Pipeline struct {
	app     *App
	cfg     PipelineConfig
	queries QueryStates
	logger  *slog.Logger
	tools   sync.Map // resource id + registration revision -> resources.Tool
}

// NewPipeline returns the pipeline over a; cfg's zero fields take defaults.
// The coordination scheme of a query is the coordination policy in force
// for its user (Centralized, the paper's coordinator, by default).
func NewPipeline(a *App, cfg PipelineConfig, queries QueryStates, logger *slog.Logger) (*Pipeline, error) {
	cfg = cfg.WithDefaults()
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if a == nil || queries == nil {
		return nil, errors.New("app: NewPipeline needs an App and the query states")
	}
	logger = cmp.Or(logger, slog.Default())
	return &Pipeline{app: a, cfg: cfg, queries: queries, logger: logger}, nil
}

// Config returns the effective configuration.
func (p *Pipeline) Config() PipelineConfig { return p.cfg }

// load waits until the projections include the event at rev and returns
// the state of the query it belongs to.
func (p *Pipeline) load(ctx context.Context, id string, rev uint64) (query.Query, bool, error) {
	if err := p.app.fresh.WaitFor(ctx, rev); err != nil {
		return query.Query{}, false, err
	}
	q, ok := p.queries.Get(id)
	return q, ok, nil
}

// emit appends a pipeline event with a step-derived id, so a stage run
// twice appends it once, and the query id as correlation id.
func (p *Pipeline) emit(ctx context.Context, q query.Query, causation, step string, payload events.Payload) error {
	e, err := events.New(events.Meta{
		ID: step, Source: p.app.cfg.Source, Actor: q.User, CorrelationID: q.ID, CausationID: causation,
	}, payload)
	if err != nil {
		return err
	}
	_, err = p.app.log.Append(ctx, e, false)
	return err
}

// fail ends q with a QueryFailed event of stage; its id is derived from
// the query, so however many stages and sweepers fail it, the log keeps one.
func (p *Pipeline) fail(ctx context.Context, q query.Query, causation, stage, reason string) error {
	return p.emit(ctx, q, causation, events.StepID(q.ID, "failed"), &events.QueryFailed{
		QueryID: q.ID, User: q.User, Stage: stage, Reason: reason,
	})
}

// providerFailure ends the query when the provider failed for good. A
// stage whose own context ended — a worker shutting down, or a stage that
// ran out of time because the log stalled (a leader election) — is retried
// instead, on this worker or another; the query timeout still bounds it.
func (p *Pipeline) providerFailure(ctx context.Context, q query.Query, causation, stage string, err error) error {
	if ctx.Err() != nil {
		return err
	}
	return p.fail(context.WithoutCancel(ctx), q, causation, stage, err.Error())
}

// FailStale ends every query pending longer than QueryTimeout with a
// QueryFailed event (stage "timeout"): a query whose events stopped flowing
// ends with an answer, never a hang. The failure's id is derived from the
// query, so every worker may sweep and the log keeps one.
func (p *Pipeline) FailStale(ctx context.Context) {
	for _, q := range p.queries.Pending(time.Now().Add(-p.cfg.QueryTimeout)) {
		reason := fmt.Sprintf("not finished within %s", p.cfg.QueryTimeout)
		if err := p.fail(ctx, q, "", "timeout", reason); err != nil && ctx.Err() == nil {
			p.logger.Warn("sweeper could not end a stale query", "query", q.ID, "err", err)
		}
	}
}
