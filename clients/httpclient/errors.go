package httpclient

import (
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/cmem/cmem/domain"
)

// The sentinels an *Error matches with errors.Is. They are package
// domain's errors, the ones the gateway maps to HTTP (gateway/errors.go),
// so errors.Is(err, domain.ErrForbidden) holds too.
var (
	ErrInvalid         = domain.ErrInvalid         // 400, code "invalid"
	ErrUnauthenticated = domain.ErrUnauthenticated // 401, code "unauthenticated"
	ErrForbidden       = domain.ErrForbidden       // 403, code "forbidden" (and "refused_by_policy")
	ErrPolicyRefused   = domain.ErrPolicyRefused   // 403, code "refused_by_policy"
	ErrNotFound        = domain.ErrNotFound        // 404, code "not_found"
	ErrConflict        = domain.ErrConflict        // 409, code "conflict"
	ErrTooLarge        = domain.ErrTooLarge        // 413, code "too_large"
	ErrRateLimited     = domain.ErrRateLimited     // 429, code "rate_limited"
	ErrUnavailable     = domain.ErrUnavailable     // 503, code "unavailable": retrying later can succeed
)

// byCode and byStatus are the gateway's mapping read backwards.
var (
	byCode = map[string]error{
		"invalid": ErrInvalid, "unauthenticated": ErrUnauthenticated, "forbidden": ErrForbidden,
		"refused_by_policy": ErrPolicyRefused, "not_found": ErrNotFound, "conflict": ErrConflict,
		"too_large": ErrTooLarge, "rate_limited": ErrRateLimited, "unavailable": ErrUnavailable,
	}
	byStatus = map[int]error{
		http.StatusBadRequest: ErrInvalid, http.StatusUnauthorized: ErrUnauthenticated,
		http.StatusForbidden: ErrForbidden, http.StatusNotFound: ErrNotFound, http.StatusConflict: ErrConflict,
		http.StatusRequestEntityTooLarge: ErrTooLarge, http.StatusTooManyRequests: ErrRateLimited,
		http.StatusServiceUnavailable: ErrUnavailable,
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
// refusal is both ErrPolicyRefused and, being a 403, ErrForbidden.
func (e *Error) Is(target error) bool {
	c, s := byCode[e.Code], byStatus[e.Status]
	return (c != nil && c == target) || (s != nil && s == target)
}
