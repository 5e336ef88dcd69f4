// Package tracing owns cmem's OpenTelemetry traces: setup from the standard
// OTEL_* variables (off unless an OTLP endpoint or exporter is named), span
// helpers (Start, StartKind, End), trace context in NATS headers and
// Watermill metadata (Header, Inject, Extract, Fields), and Stage, which
// traces and times a pipeline stage in cmem_stage_seconds.
//
// It imports no cmem package, so every package may use it. The decorators
// that trace and time model, tool and embedding calls live beside the
// interfaces they wrap (llm.Traced, embedding.Traced), with their
// histograms; they share Timed, LatencyBuckets and Outcome from here.
//
// Spans go to the global TracerProvider, which is a no-op until Setup (or a
// test) installs one, so instrumented code costs next to nothing when
// tracing is off.
package tracing
