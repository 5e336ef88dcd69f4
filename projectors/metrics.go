package projectors

import (
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promauto"
)

var (
	// A process runs one or two runners (the vector view gets its own
	// when it is external): each is a label value, so their figures never
	// overwrite each other.
	projectedRevision = promauto.NewGaugeVec(prometheus.GaugeOpts{
		Name: "cmem_projection_revision",
		Help: "Revision of the last event applied by a projection runner.",
	}, []string{"runner"})
	projectionLag = promauto.NewGaugeVec(prometheus.GaugeOpts{
		Name: "cmem_projection_lag_events",
		Help: "Events on the log a projection runner has not applied yet (pending on its consumer after its last batch).",
	}, []string{"runner"})
	deadLetters = promauto.NewCounterVec(prometheus.CounterOpts{
		Name: "cmem_dead_letters_total",
		Help: "Events a consumer could not use, recorded on the dead-letter subject.",
	}, []string{"consumer"})
)
