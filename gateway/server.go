package gateway

import (
	"cmp"
	"context"
	"errors"
	"github.com/cmem/cmem/domain"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/cmem/cmem/app"
	"github.com/cmem/cmem/gateway/console"
)

// Config tunes the HTTP adapter.
type Config struct {
	// MaxBodyBytes bounds a request body (knowledge bases arrive inline).
	MaxBodyBytes int64
	// QueryWait bounds how long POST /v1/queries waits for an answer.
	QueryWait time.Duration
	// ReadTimeout bounds reading a whole request, body included (a body
	// sent a byte at a time cannot hold a connection); WriteTimeout
	// bounds a request from its headers to the end of the answer, so it
	// must exceed QueryWait; IdleTimeout closes idle keep-alive
	// connections.
	ReadTimeout, WriteTimeout, IdleTimeout time.Duration
	// Limits are the per-caller rate limits.
	Limits RateLimits
	// Audit answers /v1/audit/*; nil answers 503.
	Audit AuditQueries
}

// Validate reports every problem with c, its defaults filled.
func (c Config) Validate() error {
	c = c.WithDefaults()
	var errs []error
	if c.MaxBodyBytes <= 0 {
		errs = append(errs, errors.New("gateway: MaxBodyBytes must be positive"))
	}
	if c.QueryWait <= 0 {
		errs = append(errs, errors.New("gateway: QueryWait must be positive"))
	}
	if c.ReadTimeout <= 0 {
		errs = append(errs, errors.New("gateway: ReadTimeout must be positive"))
	}
	if c.IdleTimeout <= 0 {
		errs = append(errs, errors.New("gateway: IdleTimeout must be positive"))
	}
	if c.WriteTimeout <= c.QueryWait {
		errs = append(errs, errors.New("gateway: WriteTimeout must exceed QueryWait"))
	}
	errs = append(errs, c.Limits.Validate())
	return errors.Join(errs...)
}

// DefaultConfig is the configuration cmem serve uses.
func DefaultConfig() Config {
	return Config{MaxBodyBytes: 16 << 20, QueryWait: 60 * time.Second,
		ReadTimeout: 30 * time.Second, WriteTimeout: 90 * time.Second, IdleTimeout: 120 * time.Second,
		Limits: DefaultRateLimits()}
}

// WithDefaults returns c with its zero fields filled from DefaultConfig
// (a zero WriteTimeout also exceeds QueryWait by 30s). A zero Limits takes
// the default limits (Limits.Off turns them all off).
func (c Config) WithDefaults() Config {
	d := DefaultConfig()
	c.MaxBodyBytes = cmp.Or(c.MaxBodyBytes, d.MaxBodyBytes)
	c.QueryWait = cmp.Or(c.QueryWait, d.QueryWait)
	c.ReadTimeout = cmp.Or(c.ReadTimeout, d.ReadTimeout)
	c.WriteTimeout = cmp.Or(c.WriteTimeout, max(d.WriteTimeout, c.QueryWait+30*time.Second))
	c.IdleTimeout = cmp.Or(c.IdleTimeout, d.IdleTimeout)
	c.Limits = c.Limits.WithDefaults()
	return c
}

// Server is the HTTP API of contract v1.
type Server struct {
	cfg    Config
	app    *app.App
	logger *slog.Logger
	mux    *http.ServeMux
	limits *limiter
	// patterns are the routes registered, in order (see Routes).
	patterns []string
	// closing ends the event streams (CloseStreams).
	closing      context.Context
	closeStreams context.CancelFunc
}

// New returns the API handler; cfg's zero fields take their defaults.
func New(cfg Config, a *app.App, logger *slog.Logger) (*Server, error) {
	cfg = cfg.WithDefaults()
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	logger = cmp.Or(logger, slog.Default())
	s := &Server{cfg: cfg, app: a, logger: logger, mux: http.NewServeMux(), limits: newLimiter()}
	s.closing, s.closeStreams = context.WithCancel(context.Background())
	s.routes()
	return s, nil
}

func (s *Server) routes() {
	authed := func(pattern string, h func(http.ResponseWriter, *http.Request, domain.Identity)) {
		s.handle(pattern, s.authenticate(h))
	}
	lim := s.cfg.Limits
	if lim.Off {
		lim = RateLimits{Off: true}
	}
	authed("POST /v1/users", s.limited("registrations", lim.Registrations, s.registerUser))
	authed("POST /v1/agents", s.limited("registrations", lim.Registrations, s.registerAgent))
	authed("POST /v1/resources", s.limited("registrations", lim.Registrations, s.registerResource))
	authed("PUT /v1/grants/user-agent/{from}/{to}", s.grant(true, true))
	authed("DELETE /v1/grants/user-agent/{from}/{to}", s.grant(true, false))
	authed("PUT /v1/grants/agent-resource/{from}/{to}", s.grant(false, true))
	authed("DELETE /v1/grants/agent-resource/{from}/{to}", s.grant(false, false))
	authed("POST /v1/batch", s.limited("batches", lim.Registrations, s.batch))
	authed("GET /v1/access/{user}", s.accessOf)
	authed("POST /v1/fragments", s.limited("fragments", lim.Fragments, s.writeFragment))
	authed("GET /v1/fragments/{id}/history", s.fragmentHistory)
	authed("POST /v1/memory/view", s.memoryView)
	authed("POST /v1/memory/graph", s.memoryGraph)
	authed("POST /v1/policies", s.setPolicy)
	authed("GET /v1/policies", s.listPolicies)
	authed("POST /v1/queries", s.limited("queries", lim.Queries, s.submitQuery))
	authed("GET /v1/queries/{id}", s.getQuery)
	authed("GET /v1/debug/digest", s.digest)
	s.auditRoutes(authed)
	s.lifecycleRoutes(authed)
	s.consoleRoutes(authed)
	s.governanceRoutes(authed)
	s.handle("GET /{$}", console.Handler())
	s.handle("GET /console/", console.Handler())
	s.handle("GET /favicon.ico", console.Handler())
	s.handle("GET /healthz", http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
	}))
	s.handle("GET /metrics", promhttp.Handler())
	s.handle("GET /openapi.json", http.HandlerFunc(serveOpenAPI))
	s.mux.HandleFunc("/", s.unrouted)
}

// unrouted answers in the API's error shape: 405 with Allow when the path
// exists under other methods, 404 otherwise.
func (s *Server) unrouted(w http.ResponseWriter, r *http.Request) {
	var allow []string
	for _, m := range []string{http.MethodGet, http.MethodPost, http.MethodPut, http.MethodDelete} {
		probe := r.Clone(r.Context())
		probe.Method = m
		if _, pattern := s.mux.Handler(probe); pattern != "/" {
			allow = append(allow, m)
		}
	}
	if len(allow) > 0 {
		w.Header().Set("Allow", strings.Join(allow, ", "))
		writeJSON(w, http.StatusMethodNotAllowed, errorBody{Error: r.Method + " is not allowed on " + r.URL.Path, Code: "method_not_allowed"})
		return
	}
	writeJSON(w, http.StatusNotFound, errorBody{Error: "no such endpoint: " + r.Method + " " + r.URL.Path, Code: "not_found"})
}

// HTTPServer is an http.Server for s with its timeouts set.
func (s *Server) HTTPServer() *http.Server {
	srv := &http.Server{
		Handler:           s,
		ReadHeaderTimeout: min(10*time.Second, s.cfg.ReadTimeout),
		ReadTimeout:       s.cfg.ReadTimeout,
		WriteTimeout:      s.cfg.WriteTimeout,
		IdleTimeout:       s.cfg.IdleTimeout,
		ErrorLog:          slog.NewLogLogger(s.logger.Handler(), slog.LevelDebug),
	}
	// Shutdown waits for open requests; event streams end at once.
	srv.RegisterOnShutdown(s.CloseStreams)
	return srv
}

// ServeHTTP implements http.Handler.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	rec := &statusRecorder{ResponseWriter: w, status: http.StatusOK}
	r = s.withCorrelation(rec, r)
	r.Body = http.MaxBytesReader(rec, r.Body, s.cfg.MaxBodyBytes)
	_, pattern := s.mux.Handler(r)
	r, span := startSpan(r, pattern)
	defer func() {
		if p := recover(); p != nil {
			s.logger.Error("panic in handler", "method", r.Method, "path", r.URL.Path, "correlation_id", app.CorrelationID(r.Context()), "panic", p)
			writeJSON(rec, http.StatusInternalServerError, errorBody{Error: "internal error; see the server log for correlation id " + app.CorrelationID(r.Context()), Code: "internal"})
		}
		d := time.Since(start)
		observe(r.Method, pattern, rec.status, d)
		endSpan(span, rec.status)
		s.logRequest(r, pattern, rec.status, d)
	}()
	s.mux.ServeHTTP(rec, r)
}

type statusRecorder struct {
	http.ResponseWriter
	status int
}

// Unwrap lets http.ResponseController reach the connection (flushes of
// the event stream).
func (r *statusRecorder) Unwrap() http.ResponseWriter { return r.ResponseWriter }

func (r *statusRecorder) WriteHeader(code int) {
	r.status = code
	r.ResponseWriter.WriteHeader(code)
}
