package gateway

import (
	"fmt"
	"net/http"
	"net/url"
	"strconv"

	"github.com/cmem/cmem/app"
	"github.com/cmem/cmem/domain"
)

// The endpoints the console needs besides contract v1's; any client may
// use them, with the same checks.
func (s *Server) consoleRoutes(authed func(string, func(http.ResponseWriter, *http.Request, domain.Identity))) {
	authed("GET /v1/me", s.me)
	authed("GET /v1/access", s.accessGraph)
	authed("GET /v1/grants/changes", s.grantChanges)
	authed("GET /v1/queries", s.listQueries)
	authed("GET /v1/usage", s.usage)
	authed("GET /v1/events/stream", s.eventStream)
}

// accessGraph serves GET /v1/access?at=|revision=: every user's row for an
// admin, the caller's own for a user.
func (s *Server) accessGraph(w http.ResponseWriter, r *http.Request, by domain.Identity) {
	q, err := asOf(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	ans, err := s.app.AccessGraph(r.Context(), by, q)
	s.answer(w, r, http.StatusOK, ans, err)
}

// grantChanges serves GET /v1/grants/changes?from_revision=&to_revision=
// &from=&to=&user=&limit=.
func (s *Server) grantChanges(w http.ResponseWriter, r *http.Request, by domain.Identity) {
	v := r.URL.Query()
	q := app.ChangesQuery{User: v.Get("user")}
	var err error
	for _, p := range []struct {
		name string
		dst  *uint64
	}{{"from_revision", &q.After}, {"to_revision", &q.UpTo}, {"min_revision", &q.MinRevision}} {
		if err == nil {
			*p.dst, err = uintParam(v, p.name)
		}
	}
	if err == nil {
		q.From, err = timeParam(v, "from")
	}
	if err == nil {
		q.To, err = timeParam(v, "to")
	}
	if err == nil {
		q.Limit, err = limitParam(v)
	}
	if err != nil {
		s.fail(w, r, err)
		return
	}
	ans, err := s.app.AccessChanges(r.Context(), by, q)
	s.answer(w, r, http.StatusOK, ans, err)
}

// listQueries serves GET /v1/queries?user=&from=&to=&limit=.
func (s *Server) listQueries(w http.ResponseWriter, r *http.Request, by domain.Identity) {
	v := r.URL.Query()
	q := app.ListQuery{User: v.Get("user")}
	var err error
	if q.From, err = timeParam(v, "from"); err == nil {
		if q.To, err = timeParam(v, "to"); err == nil {
			q.Limit, err = limitParam(v)
		}
	}
	if err != nil {
		s.fail(w, r, err)
		return
	}
	items, err := s.app.ListQueries(r.Context(), by, q)
	s.answer(w, r, http.StatusOK, map[string]any{"queries": items}, err)
}

// usage serves GET /v1/usage?user=&from=&to=.
func (s *Server) usage(w http.ResponseWriter, r *http.Request, by domain.Identity) {
	v := r.URL.Query()
	from, err := timeParam(v, "from")
	if err != nil {
		s.fail(w, r, err)
		return
	}
	to, err := timeParam(v, "to")
	if err != nil {
		s.fail(w, r, err)
		return
	}
	ans, err := s.app.Usage(r.Context(), by, v.Get("user"), from, to)
	s.answer(w, r, http.StatusOK, ans, err)
}

func uintParam(v url.Values, name string) (uint64, error) {
	s := v.Get(name)
	if s == "" {
		return 0, nil
	}
	n, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%w: %s must be a non-negative integer", domain.ErrInvalid, name)
	}
	return n, nil
}

func limitParam(v url.Values) (int, error) {
	s := v.Get("limit")
	if s == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("%w: limit must be a non-negative integer", domain.ErrInvalid)
	}
	return n, nil
}

// me serves GET /v1/me: who the token stands for.
func (s *Server) me(w http.ResponseWriter, _ *http.Request, by domain.Identity) {
	writeJSON(w, http.StatusOK, map[string]any{"id": by.ID, "admin": by.Admin})
}
