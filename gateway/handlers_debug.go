package gateway

import (
	"fmt"
	"net/http"
	"strconv"

	"github.com/cmem/cmem/domain"
)

// digest serves GET /v1/debug/digest[?revision=N] (admin only): a hash of
// this process's access graph and fragment registry at a revision, so that
// operators and the cluster tests can check that processes agree.
func (s *Server) digest(w http.ResponseWriter, r *http.Request, by domain.Identity) {
	var rev uint64
	if v := r.URL.Query().Get("revision"); v != "" {
		n, err := strconv.ParseUint(v, 10, 64)
		if err != nil {
			s.fail(w, r, fmt.Errorf("%w: revision must be a non-negative integer", domain.ErrInvalid))
			return
		}
		rev = n
	}
	d, err := s.app.Digest(r.Context(), by, rev)
	s.answer(w, r, http.StatusOK, d, err)
}
