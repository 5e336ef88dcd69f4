package app

import (
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promauto"
)

// viewPostFilterDropped counts hits a vector store returned that the graphs
// say are not admissible. It must stay at zero; anything else is a bug in a
// store's filter that the re-check caught.
var viewPostFilterDropped = promauto.NewCounter(prometheus.CounterOpts{
	Name: "cmem_view_postfilter_dropped_total",
	Help: "Vector-view hits dropped by the authoritative admissibility re-check.",
})

// clockNow is when policies are resolved; a method so tests can see the
// one place wall-clock time enters a decision.
func (a *App) clockNow() time.Time { return time.Now() }
