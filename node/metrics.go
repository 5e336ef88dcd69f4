package node

import (
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// serveMetrics gives a worker, which serves no API, the two endpoints a
// deployment needs from every process: /metrics for Prometheus and /healthz
// for the orchestrator's health check.
func (n *Node) serveMetrics() error {
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", promhttp.Handler())
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"status":"ok"}` + "\n"))
	})
	return n.listen(n.cfg.MetricsAddr, &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second})
}
