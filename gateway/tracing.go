package gateway

import (
	"context"
	"log/slog"
	"net/http"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"

	"github.com/cmem/cmem/app"
	"github.com/cmem/cmem/internal/tracing"
)

// startSpan begins the server span of one request, named by its route
// pattern, as a child of the caller's traceparent if it sent one. The
// events the request appends carry this span's context onto the bus.
func startSpan(r *http.Request, pattern string) (*http.Request, trace.Span) {
	if pattern == "" || pattern == "/" {
		pattern = r.Method + " unmatched"
	}
	ctx := tracing.Extract(r.Context(), propagation.HeaderCarrier(r.Header))
	ctx, span := tracing.StartKind(ctx, pattern, trace.SpanKindServer,
		attribute.String("http.request.method", r.Method), attribute.String("http.route", pattern),
		attribute.String("url.path", r.URL.Path), attribute.String("cmem.correlation_id", app.CorrelationID(r.Context())))
	return r.WithContext(ctx), span
}

func endSpan(span trace.Span, status int) {
	span.SetAttributes(attribute.Int("http.response.status_code", status))
	if status >= 500 {
		span.SetStatus(codes.Error, http.StatusText(status))
	}
	span.End()
}

// logRequest writes one line per request with its correlation id: at debug
// level when it went well, warn for a 4xx that is not routine, error for a
// 5xx (which also logged its cause with the same id).
func (s *Server) logRequest(r *http.Request, pattern string, status int, d time.Duration) {
	level := slog.LevelDebug
	switch {
	case status >= 500:
		level = slog.LevelError
	case status == http.StatusUnauthorized || status == http.StatusForbidden:
		level = slog.LevelInfo
	}
	// Most requests log at debug, usually off: skip boxing the attributes.
	if !s.logger.Enabled(context.Background(), level) {
		return
	}
	s.logger.Log(context.Background(), level, "request", "method", r.Method, "route", pattern, "path", r.URL.Path,
		"status", status, "duration_ms", float64(d.Microseconds())/1000, "correlation_id", app.CorrelationID(r.Context()))
}
