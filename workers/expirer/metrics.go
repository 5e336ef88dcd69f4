package expirer

import (
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promauto"
)

// expiredTotal counts expired events this process stored.
var expiredTotal = promauto.NewCounter(prometheus.CounterOpts{
	Name: "cmem_grants_expired_total",
	Help: "Expired events this process appended for grants that reached their expires_at.",
})
