package gateway

import (
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/cmem/cmem/app"
	"github.com/cmem/cmem/domain"
)

type revisionAnswer struct {
	Revision uint64 `json:"revision"`
}

func (s *Server) registerUser(w http.ResponseWriter, r *http.Request, by domain.Identity) {
	var req struct {
		ID   string `json:"id"`
		Role string `json:"role"`
	}
	if err := decode(r, &req, true); err != nil {
		s.fail(w, r, err)
		return
	}
	token, rev, err := s.app.RegisterUser(r.Context(), by, req.ID, req.Role)
	s.answer(w, r, http.StatusCreated, map[string]any{"id": req.ID, "token": token, "revision": rev}, err)
}

func (s *Server) registerAgent(w http.ResponseWriter, r *http.Request, by domain.Identity) {
	var req struct {
		ID           string `json:"id"`
		Description  string `json:"description"`
		SystemPrompt string `json:"system_prompt"`
	}
	if err := decode(r, &req, true); err != nil {
		s.fail(w, r, err)
		return
	}
	rev, err := s.app.RegisterAgent(r.Context(), by, req.ID, req.Description, req.SystemPrompt)
	s.answer(w, r, http.StatusCreated, map[string]any{"id": req.ID, "revision": rev}, err)
}

// registerResource takes id, kind and description; every other field is the
// kind-specific configuration and is kept as given.
func (s *Server) registerResource(w http.ResponseWriter, r *http.Request, by domain.Identity) {
	var fields map[string]json.RawMessage
	if err := decode(r, &fields, false); err != nil {
		s.fail(w, r, err)
		return
	}
	var id, kind, description string
	for name, dst := range map[string]*string{"id": &id, "kind": &kind, "description": &description} {
		if raw, ok := fields[name]; ok {
			if err := json.Unmarshal(raw, dst); err != nil {
				s.fail(w, r, fmt.Errorf("%w: %s must be a string", domain.ErrInvalid, name))
				return
			}
			delete(fields, name)
		}
	}
	rev, err := s.app.RegisterResource(r.Context(), by, id, kind, description, fields)
	s.answer(w, r, http.StatusCreated, map[string]any{"id": id, "revision": rev}, err)
}

func (s *Server) grant(userAgent, granted bool) func(http.ResponseWriter, *http.Request, domain.Identity) {
	return func(w http.ResponseWriter, r *http.Request, by domain.Identity) {
		e := app.Edge{UserAgent: userAgent, From: r.PathValue("from"), To: r.PathValue("to")}
		var rev uint64
		term, err := grantTerm(r)
		switch {
		case err != nil:
		case granted:
			rev, err = s.app.Grant(r.Context(), by, e, term)
		default:
			rev, err = s.app.SetGrant(r.Context(), by, e, false)
		}
		if err != nil {
			s.fail(w, r, err)
			return
		}
		writeJSON(w, http.StatusOK, revisionAnswer{Revision: rev})
	}
}
