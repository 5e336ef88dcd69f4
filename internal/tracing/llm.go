package tracing

import (
	"context"
	"encoding/json"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"

	"github.com/cmem/cmem/llm"
)

// Provider traces and times every call of an llm.Provider; the tools an
// agent calls during Answer become child spans of its answer span.
type Provider struct{ Next llm.Provider }

var _ llm.Provider = Provider{}

// Name implements llm.Provider.
func (p Provider) Name() string { return p.Next.Name() }

func (p Provider) start(ctx context.Context, call string, attrs ...attribute.KeyValue) (context.Context, func(error)) {
	start := time.Now()
	ctx, span := StartKind(ctx, "llm."+call, trace.SpanKindClient, append(attrs, attribute.String("llm.provider", p.Next.Name()))...)
	return ctx, func(err error) {
		modelSeconds.WithLabelValues(p.Next.Name(), call, outcome(err)).Observe(since(start))
		End(span, err)
	}
}

// Coordinate implements llm.Provider.
func (p Provider) Coordinate(ctx context.Context, req llm.CoordinateRequest) (d llm.Decision, err error) {
	ctx, done := p.start(ctx, "coordinate")
	defer func() { done(err) }()
	return p.Next.Coordinate(ctx, req)
}

// Answer implements llm.Provider.
func (p Provider) Answer(ctx context.Context, req llm.AnswerRequest) (r llm.AnswerResult, err error) {
	ctx, done := p.start(ctx, "answer", attribute.String("cmem.agent", req.AgentID))
	defer func() { done(err) }()
	if call := req.Call; call != nil {
		req.Call = func(ctx context.Context, tool string, args json.RawMessage) (string, error) {
			return Tool(ctx, tool, func(ctx context.Context) (string, error) { return call(ctx, tool, args) })
		}
	}
	return p.Next.Answer(ctx, req)
}

// Aggregate implements llm.Provider.
func (p Provider) Aggregate(ctx context.Context, req llm.AggregateRequest) (s string, err error) {
	ctx, done := p.start(ctx, "aggregate")
	defer func() { done(err) }()
	return p.Next.Aggregate(ctx, req)
}

// Extract implements llm.Provider.
func (p Provider) Extract(ctx context.Context, req llm.ExtractRequest) (kv []llm.KeyValue, err error) {
	ctx, done := p.start(ctx, "extract")
	defer func() { done(err) }()
	return p.Next.Extract(ctx, req)
}

// Transform implements llm.Provider.
func (p Provider) Transform(ctx context.Context, mode, text string) (s string, err error) {
	ctx, done := p.start(ctx, "transform", attribute.String("cmem.mode", mode))
	defer func() { done(err) }()
	return p.Next.Transform(ctx, mode, text)
}

// Score implements llm.Provider.
func (p Provider) Score(ctx context.Context, req llm.ScoreRequest) (r []llm.RubricScore, err error) {
	ctx, done := p.start(ctx, "score")
	defer func() { done(err) }()
	return p.Next.Score(ctx, req)
}

// Tool runs one tool call of an agent as a span "tool <resource>", timed in
// cmem_tool_seconds.
func Tool(ctx context.Context, resource string, call func(context.Context) (string, error)) (out string, err error) {
	start := time.Now()
	ctx, span := StartKind(ctx, "tool "+resource, trace.SpanKindClient, attribute.String("cmem.resource", resource))
	defer func() {
		toolSeconds.WithLabelValues(resource, outcome(err)).Observe(since(start))
		End(span, err)
	}()
	return call(ctx)
}

// The application asks providers optional questions through small
// interfaces (app/pipeline_reach.go, app/pipeline_scheme.go); the decorator must answer them
// as the provider it wraps would, or it would change what models are shown.

// ReadsReach reports whether the wrapped provider routes by AgentCard.Reach
// (false when it does not say).
func (p Provider) ReadsReach() bool {
	r, ok := p.Next.(interface{ ReadsReach() bool })
	return ok && r.ReadsReach()
}

// ReadsHistory reports whether the wrapped provider reads the conversation
// history (true when it does not say, as the application assumes).
func (p Provider) ReadsHistory() bool {
	r, ok := p.Next.(interface{ ReadsHistory() bool })
	return !ok || r.ReadsHistory()
}
