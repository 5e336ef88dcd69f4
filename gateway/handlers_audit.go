package gateway

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/cmem/cmem/domain"
	"github.com/cmem/cmem/projectors/audit"
)

// AuditQueries is what the audit endpoints ask (implemented by
// *audit.Service over ClickHouse or the in-process history).
type AuditQueries interface {
	Visible(ctx context.Context, by domain.Identity, q audit.VisibleQuery) (audit.VisibleAnswer, error)
	Reads(ctx context.Context, by domain.Identity, fragment string, minRevision uint64) ([]audit.Read, error)
	Violations(ctx context.Context, by domain.Identity, q audit.WindowQuery) ([]audit.Read, error)
	Deliveries(ctx context.Context, by domain.Identity, query string, minRevision uint64) ([]audit.Read, error)
	Metrics(ctx context.Context, by domain.Identity, q audit.MetricsQuery) (audit.Metrics, error)
}

var errNoAudit = fmt.Errorf("%w: no audit trail is configured on this gateway", domain.ErrUnavailable)

func (s *Server) auditRoutes(authed func(string, func(http.ResponseWriter, *http.Request, domain.Identity))) {
	authed("GET /v1/audit/visible", s.auditVisible)
	authed("GET /v1/audit/reads", s.auditReads)
	authed("GET /v1/audit/violations", s.auditViolations)
	authed("GET /v1/audit/deliveries", s.auditDeliveries)
	authed("GET /v1/audit/metrics", s.auditMetrics)
}

// auditVisible serves GET /v1/audit/visible?user=&agent=&at=RFC3339Nano.
func (s *Server) auditVisible(w http.ResponseWriter, r *http.Request, by domain.Identity) {
	v := r.URL.Query()
	q := audit.VisibleQuery{User: v.Get("user"), Agent: v.Get("agent")}
	var err error
	if q.At, err = timeParam(v, "at"); err == nil {
		q.MinRevision, err = minRevision(v)
	}
	s.answerAudit(w, r, err, func() (any, error) { return s.cfg.Audit.Visible(r.Context(), by, q) })
}

// auditReads serves GET /v1/audit/reads?fragment=id.
func (s *Server) auditReads(w http.ResponseWriter, r *http.Request, by domain.Identity) {
	v := r.URL.Query()
	minRev, err := minRevision(v)
	s.answerAudit(w, r, err, func() (any, error) { return s.cfg.Audit.Reads(r.Context(), by, v.Get("fragment"), minRev) })
}

// auditDeliveries serves GET /v1/audit/deliveries?query=id.
func (s *Server) auditDeliveries(w http.ResponseWriter, r *http.Request, by domain.Identity) {
	v := r.URL.Query()
	minRev, err := minRevision(v)
	s.answerAudit(w, r, err, func() (any, error) { return s.cfg.Audit.Deliveries(r.Context(), by, v.Get("query"), minRev) })
}

// auditViolations serves GET /v1/audit/violations?from=&to=.
func (s *Server) auditViolations(w http.ResponseWriter, r *http.Request, by domain.Identity) {
	q, err := windowParams(r.URL.Query())
	s.answerAudit(w, r, err, func() (any, error) { return s.cfg.Audit.Violations(r.Context(), by, q) })
}

// auditMetrics serves GET /v1/audit/metrics?bin=1h&from=&to=.
func (s *Server) auditMetrics(w http.ResponseWriter, r *http.Request, by domain.Identity) {
	v := r.URL.Query()
	q := audit.MetricsQuery{}
	var err error
	if q.WindowQuery, err = windowParams(v); err == nil && v.Get("bin") != "" {
		if q.Bin, err = time.ParseDuration(v.Get("bin")); err != nil {
			err = fmt.Errorf("%w: bin must be a duration such as 15m or 1h", domain.ErrInvalid)
		}
	}
	s.answerAudit(w, r, err, func() (any, error) { return s.cfg.Audit.Metrics(r.Context(), by, q) })
}

// answerAudit writes ask's answer, or the parameter error, or 503 when
// no audit trail is wired.
func (s *Server) answerAudit(w http.ResponseWriter, r *http.Request, paramErr error, ask func() (any, error)) {
	if paramErr == nil && s.cfg.Audit == nil {
		paramErr = errNoAudit
	}
	if paramErr != nil {
		s.fail(w, r, paramErr)
		return
	}
	ans, err := ask()
	s.answer(w, r, http.StatusOK, ans, err)
}

func windowParams(v url.Values) (audit.WindowQuery, error) {
	var q audit.WindowQuery
	var err error
	if q.From, err = timeParam(v, "from"); err != nil {
		return q, err
	}
	if q.To, err = timeParam(v, "to"); err != nil {
		return q, err
	}
	q.MinRevision, err = minRevision(v)
	return q, err
}

func timeParam(v url.Values, name string) (*time.Time, error) {
	s := v.Get(name)
	if s == "" {
		return nil, nil
	}
	t, err := parseTime(name, s)
	if err != nil {
		return nil, err
	}
	return &t, nil
}

func minRevision(v url.Values) (uint64, error) {
	s := v.Get("min_revision")
	if s == "" {
		return 0, nil
	}
	n, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%w: min_revision must be a non-negative integer", domain.ErrInvalid)
	}
	return n, nil
}
