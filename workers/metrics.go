package workers

import (
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promauto"
)

var workerRestarts = promauto.NewCounter(prometheus.CounterOpts{
	Name: "cmem_worker_router_restarts_total",
	Help: "Worker routers built again because the previous one could not start, stopped, or lost a consumer.",
})
