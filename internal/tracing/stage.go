package tracing

import (
	"context"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"
)

// Stage runs one pipeline stage (or any unit of work of a use case) as a
// span "stage <name>", timed in cmem_stage_seconds{stage=name}. The lead's
// app/ stages and the workers' router call it; attrs annotate the span (the
// query id, the agent).
func Stage(ctx context.Context, name string, fn func(context.Context) error, attrs ...attribute.KeyValue) (err error) {
	start := time.Now()
	ctx, span := StartKind(ctx, "stage "+name, trace.SpanKindConsumer, attrs...)
	defer func() {
		stageSeconds.WithLabelValues(name, Outcome(err)).Observe(time.Since(start).Seconds())
		End(span, err)
	}()
	return fn(ctx)
}
