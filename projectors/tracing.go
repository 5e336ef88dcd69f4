package projectors

import (
	"context"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"

	"github.com/cmem/cmem/internal/tracing"
)

// traceApplied starts, for every event of batch that carries a trace
// context, a span "project <type>" in that trace; the spans end when the
// batch is applied, so a trace shows when a command's event became
// readable in this process. Events without a trace context cost one header
// lookup.
func (r *Runner) traceApplied(ctx context.Context, batch []parsed) []trace.Span {
	var spans []trace.Span
	for _, p := range batch {
		h := tracing.Header(p.msg.Header)
		if h.Get("traceparent") == "" || p.err != nil {
			continue
		}
		_, span := tracing.StartKind(tracing.Extract(ctx, h), "project "+p.env.Type, trace.SpanKindConsumer,
			attribute.String("cmem.runner", r.name), attribute.Int64("cmem.revision", int64(p.msg.Revision)))
		spans = append(spans, span)
	}
	return spans
}
