package tracing

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	semconv "go.opentelemetry.io/otel/semconv/v1.26.0"
	"go.opentelemetry.io/otel/trace"
)

// Name is the instrumentation scope of cmem's spans.
const Name = "github.com/cmem/cmem"

// propagator carries W3C trace context (traceparent, tracestate) across
// HTTP and NATS; it is used directly, not through the global, so that
// propagation works whatever else the process configured.
var propagator = propagation.NewCompositeTextMapPropagator(propagation.TraceContext{}, propagation.Baggage{})

// Enabled reports whether the OTEL_* variables ask for traces: an OTLP
// endpoint, or OTEL_TRACES_EXPORTER=otlp; OTEL_SDK_DISABLED=true or
// OTEL_TRACES_EXPORTER=none turn them off.
func Enabled(getenv func(string) string) bool {
	if strings.EqualFold(getenv("OTEL_SDK_DISABLED"), "true") {
		return false
	}
	switch strings.ToLower(getenv("OTEL_TRACES_EXPORTER")) {
	case "none":
		return false
	case "otlp":
		return true
	}
	return getenv("OTEL_EXPORTER_OTLP_ENDPOINT") != "" || getenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT") != ""
}

// Setup installs a TracerProvider exporting over OTLP/HTTP when Enabled;
// the exporter, sampler (OTEL_TRACES_SAMPLER), batching (OTEL_BSP_*) and
// resource (OTEL_SERVICE_NAME, OTEL_RESOURCE_ATTRIBUTES) read their standard
// variables. It returns the function that flushes and stops it; when
// tracing is off both are no-ops.
func Setup(ctx context.Context, service string) (func(context.Context) error, error) {
	if !Enabled(os.Getenv) {
		return func(context.Context) error { return nil }, nil
	}
	exp, err := otlptracehttp.New(ctx)
	if err != nil {
		return nil, fmt.Errorf("tracing: OTLP exporter: %w", err)
	}
	res, err := resource.Merge(resource.Default(), resource.NewSchemaless(semconv.ServiceName(service)))
	if err != nil {
		return nil, err
	}
	if env, err := resource.New(ctx, resource.WithFromEnv()); err == nil {
		if merged, err := resource.Merge(res, env); err == nil {
			res = merged
		}
	}
	tp := sdktrace.NewTracerProvider(sdktrace.WithBatcher(exp), sdktrace.WithResource(res))
	otel.SetTracerProvider(tp)
	otel.SetTextMapPropagator(propagator)
	return tp.Shutdown, nil
}

// Start begins a span named name as a child of the span in ctx.
func Start(ctx context.Context, name string, attrs ...attribute.KeyValue) (context.Context, trace.Span) {
	return otel.Tracer(Name).Start(ctx, name, trace.WithAttributes(attrs...))
}

// StartKind is Start with a span kind (server, consumer, client, …).
func StartKind(ctx context.Context, name string, kind trace.SpanKind, attrs ...attribute.KeyValue) (context.Context, trace.Span) {
	return otel.Tracer(Name).Start(ctx, name, trace.WithSpanKind(kind), trace.WithAttributes(attrs...))
}

// End records err (if any) on span and ends it; use it as
// defer func() { tracing.End(span, err) }().
func End(span trace.Span, err error) {
	if err != nil && !errors.Is(err, context.Canceled) {
		span.RecordError(err)
		span.SetStatus(codes.Error, err.Error())
	}
	span.End()
}

// Header is a NATS header (or any map of header lists) as a carrier, with
// keys kept exactly as written: NATS header keys are case-sensitive.
type Header map[string][]string

// Get implements propagation.TextMapCarrier.
func (h Header) Get(key string) string {
	if v := h[key]; len(v) > 0 {
		return v[0]
	}
	return ""
}

// Set implements propagation.TextMapCarrier.
func (h Header) Set(key, value string) { h[key] = []string{value} }

// Keys implements propagation.TextMapCarrier.
func (h Header) Keys() []string {
	keys := make([]string, 0, len(h))
	for k := range h {
		keys = append(keys, k)
	}
	return keys
}

// Inject writes the trace context of ctx into carrier (a Header, an
// http.Header through propagation.HeaderCarrier, or Watermill metadata
// through propagation.MapCarrier). Without a span in ctx it writes nothing.
func Inject(ctx context.Context, carrier propagation.TextMapCarrier) {
	propagator.Inject(ctx, carrier)
}

// Extract returns ctx with the remote span context found in carrier.
func Extract(ctx context.Context, carrier propagation.TextMapCarrier) context.Context {
	return propagator.Extract(ctx, carrier)
}

// Fields are the carrier keys the propagator reads and writes.
func Fields() []string { return propagator.Fields() }
