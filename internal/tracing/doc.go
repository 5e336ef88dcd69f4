// Package tracing owns cmem's OpenTelemetry traces: setup from the standard
// OTEL_* variables (off unless an OTLP endpoint or exporter is named), span
// helpers for the application's stages, trace context in NATS headers and
// Watermill metadata, and decorators that trace and time model calls,
// embeddings and tool calls.
//
// Spans go to the global TracerProvider, which is a no-op until Setup (or a
// test) installs one, so instrumented code costs next to nothing when
// tracing is off.
package tracing
