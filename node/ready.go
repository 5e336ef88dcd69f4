package node

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/cmem/cmem/events/eventlog"
)

// readiness is a process's HTTP handler from the moment it listens: until
// the process is ready it answers GET /healthz with 503 and the reason it
// is not (the dependency it waits for and that dependency's last error),
// and every other request with 503 and Retry-After; once ready, it hands
// every request to the process's own handler. A start that waits for a
// NATS quorum is then visible to an orchestrator's health check, instead
// of a closed port or, worse, a process that said ready too early.
type readiness struct {
	reason atomic.Pointer[string]
	next   atomic.Pointer[http.Handler]
}

func newReadiness() *readiness {
	r := &readiness{}
	r.set("starting")
	return r
}

// set records why the process is not ready yet.
func (r *readiness) set(reason string) { r.reason.Store(&reason) }

// Reason is why the process is not ready ("" once it is).
func (r *readiness) Reason() string {
	if r.next.Load() != nil {
		return ""
	}
	return *r.reason.Load()
}

// serve makes h answer every request from now on: the process is ready.
func (r *readiness) serve(h http.Handler) { r.next.Store(&h) }

// ServeHTTP implements http.Handler.
func (r *readiness) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	if h := r.next.Load(); h != nil {
		(*h).ServeHTTP(w, req)
		return
	}
	reason := *r.reason.Load()
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Retry-After", "1")
	w.WriteHeader(http.StatusServiceUnavailable)
	body := map[string]string{"error": "not ready: " + reason, "code": "unavailable"}
	if req.Method == http.MethodGet && req.URL.Path == "/healthz" {
		body = map[string]string{"status": "starting", "reason": reason}
	}
	_ = json.NewEncoder(w).Encode(body)
}

// stepAttempt bounds one attempt of a start step that reaches a
// dependency (a KV bucket, Weaviate, ClickHouse, the stream's head).
const stepAttempt = 15 * time.Second

// waiting records and logs, before each retry, why the process is not
// ready: a log line each retry, and the reason /healthz gives.
func (n *Node) waiting(what string, err error) {
	n.ready.set(fmt.Sprintf("waiting for %s: %v", what, err))
	n.logger.Warn("not ready: waiting", "for", what, "err", err)
}

// step runs one start step that depends on another service until it
// succeeds (see eventlog.Retry); only the end of ctx ends the wait.
func (n *Node) step(ctx context.Context, what string, op func(context.Context) error) error {
	n.ready.set("waiting for " + what)
	return eventlog.Retry(ctx, what, stepAttempt, n.waiting, op)
}
