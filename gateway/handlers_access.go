package gateway

import (
	"fmt"
	"net/http"
	"strconv"

	"github.com/cmem/cmem/app"
	"github.com/cmem/cmem/domain"
)

// accessOf serves GET /v1/access/{user}?at=RFC3339Nano | ?revision=N, with
// an optional min_revision for read-your-writes.
func (s *Server) accessOf(w http.ResponseWriter, r *http.Request, by domain.Identity) {
	q, err := asOf(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	ans, err := s.app.AccessOf(r.Context(), by, r.PathValue("user"), q)
	s.answer(w, r, http.StatusOK, ans, err)
}

func asOf(r *http.Request) (app.AsOf, error) {
	var q app.AsOf
	v := r.URL.Query()
	if s := v.Get("at"); s != "" {
		t, err := parseTime("at", s)
		if err != nil {
			return q, err
		}
		q.Time = &t
	}
	for name, dst := range map[string]*uint64{"revision": nil, "min_revision": &q.MinRevision} {
		s := v.Get(name)
		if s == "" {
			continue
		}
		n, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			return q, fmt.Errorf("%w: %s must be a non-negative integer", domain.ErrInvalid, name)
		}
		if dst == nil {
			q.Revision = &n
		} else {
			*dst = n
		}
	}
	return q, nil
}
