package node

import (
	"net/http"

	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/cmem/cmem/gateway"
)

// serveMetrics gives a worker, which serves no API, the two endpoints a
// deployment needs from every process: /metrics for Prometheus and /healthz
// for the orchestrator's health check; and the gateway's admin-only
// GET /v1/debug/digest (same handler, same auth), so that an operator or
// the cluster tests can check that a worker's projections equal every
// other process's.
func (n *Node) serveMetrics() error {
	api, err := gateway.New(n.cfg.Gateway.WithDefaults(), n.App, n.logger)
	if err != nil {
		return err
	}
	mux := http.NewServeMux()
	mux.Handle("GET /v1/debug/digest", api)
	mux.Handle("GET /metrics", promhttp.Handler())
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"status":"ok"}` + "\n"))
	})
	n.handler = mux // the address listens since the start (listenEarly)
	return nil
}
