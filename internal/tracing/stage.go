package tracing

import (
	"context"
	"slices"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"
)

// Stage runs one pipeline stage (or any unit of work of a use case) as a
// span "stage <name>", timed in cmem_stage_seconds{stage=name}. The lead's
// app/ stages and the workers' router call it; attrs annotate the span (the
// query id, the agent).
func Stage(ctx context.Context, name string, fn func(context.Context) error, attrs ...attribute.KeyValue) (err error) {
	ctx, done := Timed(ctx, "stage "+name, trace.SpanKindConsumer, stageSeconds, []string{name}, attrs...)
	defer func() { done(err) }()
	return fn(ctx)
}

// Timed starts a span name of kind and returns its context and done,
// which records the seconds since in hist under labels followed by the
// outcome of err (see Outcome), and ends the span with err. It is what
// Stage and the decorators of model, tool and embedding calls share, so
// every one of them is traced and timed the same way.
func Timed(ctx context.Context, name string, kind trace.SpanKind, hist *prometheus.HistogramVec, labels []string, attrs ...attribute.KeyValue) (context.Context, func(err error)) {
	start := time.Now()
	ctx, span := StartKind(ctx, name, kind, attrs...)
	return ctx, func(err error) {
		hist.WithLabelValues(append(slices.Clone(labels), Outcome(err))...).Observe(time.Since(start).Seconds())
		End(span, err)
	}
}
