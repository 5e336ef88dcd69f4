package gateway

import (
	"github.com/cmem/cmem/domain"
	"net/http"
	"time"

	"github.com/cmem/cmem/app"
)

// submitQuery serves POST /v1/queries: by default it waits (up to
// Config.QueryWait) for the answer; {"wait": false} answers 202 with the id
// at once. A query still running when the wait ends answers 202 too, with
// its state so far: poll GET /v1/queries/{id}.
func (s *Server) submitQuery(w http.ResponseWriter, r *http.Request, by domain.Identity) {
	var req struct {
		Text string `json:"text"`
		Wait *bool  `json:"wait"`
		// AsOf asks for the facts valid then (parseAsOf); absent = now.
		AsOf string `json:"as_of"`
	}
	if err := decode(r, &req, true); err != nil {
		s.fail(w, r, err)
		return
	}
	asOf, err := parseAsOf(req.AsOf)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	id, _, err := s.app.SubmitQuery(r.Context(), by, req.Text, app.ChannelHTTP, "", asOf)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	w.Header().Set("Location", "/v1/queries/"+id)
	if req.Wait != nil && !*req.Wait {
		writeJSON(w, http.StatusAccepted, map[string]string{"id": id})
		return
	}
	s.answerQuery(w, r, by, id, s.cfg.QueryWait)
}

// getQuery serves GET /v1/queries/{id}?wait=SECONDS.
func (s *Server) getQuery(w http.ResponseWriter, r *http.Request, by domain.Identity) {
	var wait time.Duration
	if v := r.URL.Query().Get("wait"); v != "" {
		var err error
		if wait, err = parseWait(v, s.cfg.QueryWait); err != nil {
			s.fail(w, r, err)
			return
		}
	}
	s.answerQuery(w, r, by, r.PathValue("id"), wait)
}

func (s *Server) answerQuery(w http.ResponseWriter, r *http.Request, by domain.Identity, id string, wait time.Duration) {
	ans, done, err := s.app.Query(r.Context(), by, id, wait)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	status := http.StatusOK
	if !done {
		status = http.StatusAccepted
	}
	writeJSON(w, status, ans)
}
