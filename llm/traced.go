package llm

import (
	"context"
	"encoding/json"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"

	"github.com/cmem/cmem/internal/tracing"
)

// Traced traces and times every call of a Provider; the tools an agent
// calls during Answer become child spans of its answer span.
type Traced struct{ Next Provider }

var _ Provider = Traced{}

// Name implements Provider.
func (p Traced) Name() string { return p.Next.Name() }

func (p Traced) start(ctx context.Context, call string, attrs ...attribute.KeyValue) (context.Context, func(error)) {
	return tracing.Timed(ctx, "llm."+call, trace.SpanKindClient, modelSeconds, []string{p.Next.Name(), call},
		append(attrs, attribute.String("llm.provider", p.Next.Name()))...)
}

// Coordinate implements Provider.
func (p Traced) Coordinate(ctx context.Context, req CoordinateRequest) (d Decision, err error) {
	ctx, done := p.start(ctx, "coordinate")
	defer func() { done(err) }()
	return p.Next.Coordinate(ctx, req)
}

// Answer implements Provider.
func (p Traced) Answer(ctx context.Context, req AnswerRequest) (r AnswerResult, err error) {
	ctx, done := p.start(ctx, "answer", attribute.String("cmem.agent", req.AgentID))
	defer func() { done(err) }()
	if call := req.Call; call != nil {
		req.Call = func(ctx context.Context, tool string, args json.RawMessage) (string, error) {
			return traceTool(ctx, tool, func(ctx context.Context) (string, error) { return call(ctx, tool, args) })
		}
	}
	return p.Next.Answer(ctx, req)
}

// Aggregate implements Provider.
func (p Traced) Aggregate(ctx context.Context, req AggregateRequest) (s string, err error) {
	ctx, done := p.start(ctx, "aggregate")
	defer func() { done(err) }()
	return p.Next.Aggregate(ctx, req)
}

// Extract implements Provider.
func (p Traced) Extract(ctx context.Context, req ExtractRequest) (kv []KeyValue, err error) {
	ctx, done := p.start(ctx, "extract")
	defer func() { done(err) }()
	return p.Next.Extract(ctx, req)
}

// Transform implements Provider.
func (p Traced) Transform(ctx context.Context, mode, text string) (s string, err error) {
	ctx, done := p.start(ctx, "transform", attribute.String("cmem.mode", mode))
	defer func() { done(err) }()
	return p.Next.Transform(ctx, mode, text)
}

// Score implements Provider.
func (p Traced) Score(ctx context.Context, req ScoreRequest) (r []RubricScore, err error) {
	ctx, done := p.start(ctx, "score")
	defer func() { done(err) }()
	return p.Next.Score(ctx, req)
}

// traceTool runs one tool call of an agent as a span "tool <resource>",
// timed in cmem_tool_seconds.
func traceTool(ctx context.Context, resource string, call func(context.Context) (string, error)) (out string, err error) {
	ctx, done := tracing.Timed(ctx, "tool "+resource, trace.SpanKindClient, toolSeconds, []string{resource}, attribute.String("cmem.resource", resource))
	defer func() { done(err) }()
	return call(ctx)
}

// Capabilities implements Provider: the wrapped provider's, so the
// pipeline computes and shows a model the same whether or not it is traced.
func (p Traced) Capabilities() Capabilities { return p.Next.Capabilities() }
