package httpclient

import (
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/cmem/cmem/domain"
)

// byCode and byStatus are the gateway's mapping read backwards.
var (
	byCode = map[string]error{
		"invalid": domain.ErrInvalid, "unauthenticated": domain.ErrUnauthenticated, "forbidden": domain.ErrForbidden,
		"refused_by_policy": domain.ErrPolicyRefused, "not_found": domain.ErrNotFound, "conflict": domain.ErrConflict,
		"too_large": domain.ErrTooLarge, "rate_limited": domain.ErrRateLimited, "unavailable": domain.ErrUnavailable,
	}
	byStatus = map[int]error{
		http.StatusBadRequest: domain.ErrInvalid, http.StatusUnauthorized: domain.ErrUnauthenticated,
		http.StatusForbidden: domain.ErrForbidden, http.StatusNotFound: domain.ErrNotFound, http.StatusConflict: domain.ErrConflict,
		http.StatusRequestEntityTooLarge: domain.ErrTooLarge, http.StatusTooManyRequests: domain.ErrRateLimited,
		http.StatusServiceUnavailable: domain.ErrUnavailable,
	}
)

// Error is an answer of cmem other than the one the caller wanted.
type Error struct {
	// Status is the HTTP status.
	Status int
	// Code and Message are the API's error code ("forbidden", "conflict",
	// …) and message; both are empty when the body is not cmem's error
	// JSON (a proxy's page, say).
	Code, Message string
	// Body is the answer as received.
	Body []byte
}

// NewError reads an answer of status with body as an *Error: its code and
// message when body is cmem's error JSON ({"error": …, "code": …}).
func NewError(status int, body []byte) *Error {
	e := &Error{Status: status, Body: body}
	var b struct{ Error, Code string }
	if json.Unmarshal(body, &b) == nil && b.Error != "" {
		e.Code, e.Message = b.Code, b.Error
	}
	return e
}

// Error is the API's message with the status and code, e.g.
// "agent planner exists (409 conflict)"; without a message, the status and
// the body as received.
func (e *Error) Error() string {
	if e.Message != "" {
		return fmt.Sprintf("%s (%d %s)", e.Message, e.Status, e.Code)
	}
	return fmt.Sprintf("HTTP %d: %s", e.Status, e.Body)
}

// Is matches the sentinel of e's code and the one of its status: a policy
// refusal is both domain.ErrPolicyRefused and, being a 403, domain.ErrForbidden.
func (e *Error) Is(target error) bool {
	c, s := byCode[e.Code], byStatus[e.Status]
	return (c != nil && c == target) || (s != nil && s == target)
}
