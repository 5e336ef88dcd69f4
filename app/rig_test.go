package app_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/cmem/cmem/app"
	"github.com/cmem/cmem/embedding"
	"github.com/cmem/cmem/embedding/hashing"
	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/llm"
	"github.com/cmem/cmem/llm/offline"
	"github.com/cmem/cmem/projectors/access"
	"github.com/cmem/cmem/projectors/memory"
	"github.com/cmem/cmem/projectors/query"
	"github.com/cmem/cmem/resources"
	"github.com/cmem/cmem/vectors/inmem"
)

// captureLog is a hand-written EventLog that keeps what is appended and
// applies it to the projections a test gives it, as a runner would.
type captureLog struct {
	mu    sync.Mutex
	heads int
	got   []events.Envelope
	apply []func(events.Record) error
	flush []func(context.Context) error
}

func (l *captureLog) Append(_ context.Context, e events.Envelope, _ bool) (uint64, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.got = append(l.got, e)
	rev := uint64(len(l.got))
	for _, f := range l.apply {
		if err := f(events.Record{Envelope: e, Revision: rev}); err != nil {
			return 0, err
		}
	}
	for _, f := range l.flush {
		if err := f(context.Background()); err != nil {
			return 0, err
		}
	}
	return rev, nil
}

// AppendAll appends es one by one: the projections a test gives the log
// see them in order, as they would the stored batch.
func (l *captureLog) AppendAll(ctx context.Context, es []app.Staged) ([]uint64, error) {
	revs := make([]uint64, len(es))
	for i, s := range es {
		rev, err := l.Append(ctx, s.Event, s.Exclusive)
		if err != nil {
			return nil, err
		}
		revs[i] = rev
	}
	return revs, nil
}

func (l *captureLog) Head(context.Context, string) (uint64, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.heads++
	return uint64(len(l.got)), nil
}

// requests is how many appends and heads the log has answered.
func (l *captureLog) requests() (appends, heads int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.got), l.heads
}

func (l *captureLog) envelopes() []events.Envelope {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]events.Envelope(nil), l.got...)
}

// fresh is a Freshness whose projections are always current: captureLog
// applies every event as it is appended.
type fresh struct{}

func (fresh) WaitFor(context.Context, uint64) error { return nil }

// rig is an App on the in-process parts, with every event applied to the
// access graph, the fragment registry, the vector view and the queries.
type rig struct {
	app     *app.App
	log     *captureLog
	queries *query.Projection
	graph   *access.Graph
	deps    app.Deps // what app runs on
}

func newRig(t testing.TB, provider llm.Provider, mutate ...func(*app.Deps)) *rig {
	t.Helper()
	return newRigOn(t, hashing.New(64), provider, mutate...)
}

// newRigOn is newRig with the embedder emb.
func newRigOn(t testing.TB, emb embedding.Embedder, provider llm.Provider, mutate ...func(*app.Deps)) *rig {
	t.Helper()
	store, err := inmem.New(emb.Dims())
	if err != nil {
		t.Fatal(err)
	}
	r := &rig{log: &captureLog{}, queries: query.NewProjection(), graph: access.NewGraph()}
	frags, pols := memory.NewFragments(), memory.NewPolicies()
	view := memory.NewViewProjection("view", store, emb)
	r.log.apply = []func(events.Record) error{r.graph.Apply, frags.Apply, pols.Apply, view.Apply, r.queries.Apply}
	r.log.flush = []func(context.Context) error{view.Flush}
	if provider == nil {
		provider = newOffline(t)
	}
	deps := app.Deps{Log: r.log, Access: r.graph, Fresh: fresh{}, Policies: pols, Fragments: frags,
		Store: store, ViewFresh: fresh{}, Embedder: emb, LLM: provider, Queries: r.queries}
	for _, m := range mutate {
		m(&deps)
	}
	r.deps = deps
	r.app, err = app.New(app.Config{AdminToken: "admin-token-for-tests", ReadWait: time.Second, Source: "test",
		Resources: resources.Options{}}, deps)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// newOffline returns the offline provider with its defaults.
func newOffline(t testing.TB) *offline.Provider {
	t.Helper()
	p, err := offline.New(offline.Config{})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// pipeline returns a pipeline of r's app and queries under cfg.
func (r *rig) pipeline(t testing.TB, cfg app.PipelineConfig) *app.Pipeline {
	t.Helper()
	p, err := app.NewPipeline(r.app, cfg, r.queries, nil)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// coordinate submits a query of user and runs its first coordinator stage.
func (r *rig) coordinate(t testing.TB, p *app.Pipeline, id, user, text string) {
	t.Helper()
	ctx := context.Background()
	e, err := events.New(events.Meta{Source: "t", Actor: user, CorrelationID: id, Time: time.Now()},
		&events.QuerySubmitted{ID: id, User: user, Text: text, Channel: "http"})
	if err != nil {
		t.Fatal(err)
	}
	rev, err := r.log.Append(ctx, e, false)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Coordinate(ctx, app.CoordinateCmd{QueryID: id, Revision: rev}); err != nil {
		t.Fatal(err)
	}
}
