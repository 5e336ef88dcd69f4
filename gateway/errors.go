package gateway

import (
	"errors"
	"net/http"

	"github.com/cmem/cmem/app"
	"github.com/cmem/cmem/domain"
)

// errorBody is the shape of every error answer.
type errorBody struct {
	Error string `json:"error"`
	Code  string `json:"code"`
	// Index names the refused item of a batch.
	Index *int `json:"index,omitempty"`
}

// statusOf maps domain errors to HTTP; it is the only place that does.
func statusOf(err error) (int, string) {
	switch {
	case errors.Is(err, domain.ErrInvalid):
		return http.StatusBadRequest, "invalid"
	case errors.Is(err, domain.ErrTooLarge):
		return http.StatusRequestEntityTooLarge, "too_large"
	case errors.Is(err, domain.ErrRateLimited):
		return http.StatusTooManyRequests, "rate_limited"
	case errors.Is(err, domain.ErrUnauthenticated):
		return http.StatusUnauthorized, "unauthenticated"
	case errors.Is(err, domain.ErrPolicyRefused):
		return http.StatusForbidden, "refused_by_policy"
	case errors.Is(err, domain.ErrForbidden):
		return http.StatusForbidden, "forbidden"
	case errors.Is(err, domain.ErrNotFound):
		return http.StatusNotFound, "not_found"
	case errors.Is(err, domain.ErrConflict):
		return http.StatusConflict, "conflict"
	case errors.Is(err, domain.ErrUnavailable):
		return http.StatusServiceUnavailable, "unavailable"
	default:
		return http.StatusInternalServerError, "internal"
	}
}

func (s *Server) fail(w http.ResponseWriter, r *http.Request, err error) {
	status, code := statusOf(err)
	msg := err.Error()
	if status == http.StatusInternalServerError {
		s.logger.Error("request failed", "method", r.Method, "path", r.URL.Path, "correlation_id", app.CorrelationID(r.Context()), "err", err)
		msg = "internal error; see the server log for correlation id " + app.CorrelationID(r.Context())
	}
	var rl errRateLimited
	if errors.As(err, &rl) {
		w.Header().Set("Retry-After", rl.retryAfter())
	}
	if status == http.StatusUnauthorized {
		w.Header().Set("WWW-Authenticate", `Bearer realm="cmem"`)
	}
	body := errorBody{Error: msg, Code: code}
	var item *app.ItemError
	if errors.As(err, &item) {
		body.Index = &item.Index
	}
	writeJSON(w, status, body)
}
