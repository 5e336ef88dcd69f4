package gateway

import (
	"net/http"

	"github.com/cmem/cmem/app"
	"github.com/cmem/cmem/domain"
)

// governanceRoutes are the calls of governed memory: relationships
// imported as grants (docs/grants.md) and conversation turns written into
// the scopes they concern.
func (s *Server) governanceRoutes(authed func(string, func(http.ResponseWriter, *http.Request, domain.Identity))) {
	authed("POST /v1/relationships", s.importRelationships)
	turns := s.cfg.Limits.Fragments // a turn is a fragment write
	if s.cfg.Limits.Off {
		turns = Rate{}
	}
	authed("POST /v1/turns", s.limited("fragments", turns, s.ingestTurn))
}

// importRelationships serves POST /v1/relationships: {"schema",
// "relationships", "principals"?} → the grants made. A refused import is
// logged with its reason, and grants nothing.
func (s *Server) importRelationships(w http.ResponseWriter, r *http.Request, by domain.Identity) {
	var req app.ImportRequest
	if err := decode(r, &req, true); err != nil {
		s.fail(w, r, err)
		return
	}
	ans, err := s.app.ImportRelationships(r.Context(), by, req)
	if err != nil {
		s.logger.Warn("relationships import refused", "by", by.ID, "correlation_id", app.CorrelationID(r.Context()), "err", err)
	}
	s.answer(w, r, http.StatusOK, ans, err)
}

// ingestTurn serves POST /v1/turns: {"text"} said by the caller → where it
// was written, why, and the governance it carried.
func (s *Server) ingestTurn(w http.ResponseWriter, r *http.Request, by domain.Identity) {
	var req app.TurnRequest
	if err := decode(r, &req, true); err != nil {
		s.fail(w, r, err)
		return
	}
	ans, err := s.app.IngestTurn(r.Context(), by, req)
	s.answer(w, r, http.StatusCreated, ans, err)
}
