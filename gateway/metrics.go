package gateway

import (
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promauto"
)

var requestSeconds = promauto.NewHistogramVec(prometheus.HistogramOpts{
	Name:    "cmem_http_request_seconds",
	Help:    "HTTP requests by route pattern and status.",
	Buckets: prometheus.ExponentialBuckets(0.0005, 4, 8),
}, []string{"method", "route", "status"})

func observe(method, route string, status int, d time.Duration) {
	if route == "" || route == "/" {
		route = "unmatched"
	}
	requestSeconds.WithLabelValues(method, route, strconv.Itoa(status)).Observe(d.Seconds())
}
