package embedding

import (
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promauto"

	"github.com/cmem/cmem/internal/tracing"
)

// The latency histogram sits beside the spans: the decorator times what it
// traces, so /metrics has the figures whether or not traces are exported.
var embeddingSeconds = promauto.NewHistogramVec(prometheus.HistogramOpts{
	Name: "cmem_embedding_seconds", Help: "Embedding calls by model and outcome.",
	Buckets: tracing.LatencyBuckets,
}, []string{"model", "outcome"})
