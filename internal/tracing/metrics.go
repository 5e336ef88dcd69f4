package tracing

import (
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promauto"
)

// The latency histograms sit beside the spans: the same decorators and
// stage wrappers time what they trace, so /metrics has the figures whether
// or not traces are exported.
var (
	latencyBuckets = prometheus.ExponentialBuckets(0.001, 2.5, 12) // 1 ms … ~60 s

	stageSeconds = promauto.NewHistogramVec(prometheus.HistogramOpts{
		Name: "cmem_stage_seconds", Help: "Pipeline stages (coordinator, agent-runtime, replier) by outcome.",
		Buckets: latencyBuckets,
	}, []string{"stage", "outcome"})
	modelSeconds = promauto.NewHistogramVec(prometheus.HistogramOpts{
		Name: "cmem_model_seconds", Help: "Model calls by provider, call (coordinate, answer, aggregate, extract, transform) and outcome.",
		Buckets: latencyBuckets,
	}, []string{"provider", "call", "outcome"})
	embeddingSeconds = promauto.NewHistogramVec(prometheus.HistogramOpts{
		Name: "cmem_embedding_seconds", Help: "Embedding calls by model and outcome.",
		Buckets: latencyBuckets,
	}, []string{"model", "outcome"})
	toolSeconds = promauto.NewHistogramVec(prometheus.HistogramOpts{
		Name: "cmem_tool_seconds", Help: "Tool (resource) calls made by agents, by resource and outcome.",
		Buckets: latencyBuckets,
	}, []string{"resource", "outcome"})
)

func outcome(err error) string {
	if err != nil {
		return "error"
	}
	return "ok"
}

func since(start time.Time) float64 { return time.Since(start).Seconds() }
