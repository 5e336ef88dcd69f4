package tracing

import (
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promauto"
)

// LatencyBuckets are the buckets of every cmem latency histogram: the
// stage histogram here and the model, tool and embedding histograms the
// decorators beside llm.Provider and embedding.Embedder keep, so that their
// quantiles compare on one dashboard. 1 ms … ~60 s.
var LatencyBuckets = prometheus.ExponentialBuckets(0.001, 2.5, 12)

// The stage histogram sits beside the spans: Stage times what it traces, so
// /metrics has the figures whether or not traces are exported.
var stageSeconds = promauto.NewHistogramVec(prometheus.HistogramOpts{
	Name: "cmem_stage_seconds", Help: "Pipeline stages (coordinator, agent-runtime, replier) by outcome.",
	Buckets: LatencyBuckets,
}, []string{"stage", "outcome"})

// Outcome is the outcome label of a latency observation: "error" when err
// is set, "ok" otherwise.
func Outcome(err error) string {
	if err != nil {
		return "error"
	}
	return "ok"
}
