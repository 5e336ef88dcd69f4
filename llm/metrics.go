package llm

import (
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promauto"

	"github.com/cmem/cmem/internal/tracing"
)

// The latency histograms sit beside the spans: the decorator times what it
// traces, so /metrics has the figures whether or not traces are exported.
var (
	modelSeconds = promauto.NewHistogramVec(prometheus.HistogramOpts{
		Name: "cmem_model_seconds", Help: "Model calls by provider, call (coordinate, answer, aggregate, extract, transform) and outcome.",
		Buckets: tracing.LatencyBuckets,
	}, []string{"provider", "call", "outcome"})
	toolSeconds = promauto.NewHistogramVec(prometheus.HistogramOpts{
		Name: "cmem_tool_seconds", Help: "Tool (resource) calls made by agents, by resource and outcome.",
		Buckets: tracing.LatencyBuckets,
	}, []string{"resource", "outcome"})
)
