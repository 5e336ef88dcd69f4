package gateway

import (
	"github.com/cmem/cmem/domain"
	"net/http"
	"strings"

	"github.com/google/uuid"

	"github.com/cmem/cmem/app"
)

// CorrelationHeader carries a caller's correlation id into the events a
// request causes; one is made up when it is missing and echoed back.
const CorrelationHeader = "X-Correlation-Id"

func (s *Server) withCorrelation(w http.ResponseWriter, r *http.Request) *http.Request {
	id := r.Header.Get(CorrelationHeader)
	if id == "" || len(id) > 128 {
		id = uuid.NewString()
	}
	w.Header().Set(CorrelationHeader, id)
	return r.WithContext(app.WithCorrelationID(r.Context(), id))
}

// authenticate resolves the bearer token before h runs; h gets the identity
// and never a raw token.
func (s *Server) authenticate(h func(http.ResponseWriter, *http.Request, domain.Identity)) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id, err := s.app.Authenticate(r.Context(), bearer(r.Header.Get("Authorization")))
		if err != nil {
			s.fail(w, r, err)
			return
		}
		h(w, r, id)
	})
}

// bearer is the token of an Authorization header with the Bearer scheme,
// whose name is case-insensitive (RFC 7235 section 2.1); "" otherwise.
func bearer(header string) string {
	scheme, token, ok := strings.Cut(strings.TrimSpace(header), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return ""
	}
	return strings.TrimSpace(token)
}
