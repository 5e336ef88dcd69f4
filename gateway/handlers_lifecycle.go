package gateway

import (
	"context"
	"github.com/cmem/cmem/domain"
	"net/http"
)

// lifecycleRoutes are erasure and the identity lifecycle:
//
//	DELETE /v1/users/{id}             admin or self: erase the user   → 200 {"revision"}
//	POST   /v1/users/{id}/token       admin or self: rotate its token → 201 {"token","revision"}
//	DELETE /v1/users/{id}/token       admin or self: revoke its token → 200 {"revision"}
//	POST   /v1/users/{id}/deactivate  admin                            → 200 {"revision"}
//	POST   /v1/users/{id}/reactivate  admin                            → 200 {"revision"}
//	DELETE /v1/fragments/{id}         owner or admin: delete it        → 200 {"revision"}
func (s *Server) lifecycleRoutes(authed func(string, func(http.ResponseWriter, *http.Request, domain.Identity))) {
	authed("DELETE /v1/users/{id}", s.revisionOf(s.app.EraseUser))
	authed("POST /v1/users/{id}/token", s.rotateToken)
	authed("DELETE /v1/users/{id}/token", s.revisionOf(s.app.RevokeToken))
	authed("POST /v1/users/{id}/deactivate", s.setActive(false))
	authed("POST /v1/users/{id}/reactivate", s.setActive(true))
	authed("DELETE /v1/fragments/{id}", s.revisionOf(s.app.DeleteFragment))
}

// revisionOf serves a command on the path's {id} that answers a revision.
func (s *Server) revisionOf(cmd func(ctx context.Context, by domain.Identity, id string) (uint64, error)) func(http.ResponseWriter, *http.Request, domain.Identity) {
	return func(w http.ResponseWriter, r *http.Request, by domain.Identity) {
		rev, err := cmd(r.Context(), by, r.PathValue("id"))
		s.answer(w, r, http.StatusOK, revisionAnswer{Revision: rev}, err)
	}
}

func (s *Server) rotateToken(w http.ResponseWriter, r *http.Request, by domain.Identity) {
	token, rev, err := s.app.RotateToken(r.Context(), by, r.PathValue("id"))
	s.answer(w, r, http.StatusCreated, map[string]any{"token": token, "revision": rev}, err)
}

func (s *Server) setActive(active bool) func(http.ResponseWriter, *http.Request, domain.Identity) {
	return s.revisionOf(func(ctx context.Context, by domain.Identity, id string) (uint64, error) {
		return s.app.SetActive(ctx, by, id, active)
	})
}
