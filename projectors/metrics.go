package projectors

import (
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promauto"
)

var (
	projectedRevision = promauto.NewGauge(prometheus.GaugeOpts{
		Name: "cmem_projection_revision",
		Help: "Revision of the last event applied by the in-memory projections.",
	})
	deadLetters = promauto.NewCounterVec(prometheus.CounterOpts{
		Name: "cmem_dead_letters_total",
		Help: "Events a consumer could not use, recorded on the dead-letter subject.",
	}, []string{"consumer"})
)
