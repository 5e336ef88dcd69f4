package app

import "errors"

// Domain errors. Adapters map them to their protocol in one place (for HTTP:
// gateway/errors.go); wrap them with %w and a message a caller can act on.
var (
	ErrInvalid         = errors.New("invalid request")
	ErrUnauthenticated = errors.New("unauthenticated")
	ErrForbidden       = errors.New("forbidden")
	ErrNotFound        = errors.New("not found")
	ErrConflict        = errors.New("conflict")
	// ErrUnavailable means a projection did not reach the revision a read
	// needs within the configured wait; retrying later can succeed.
	ErrUnavailable = errors.New("not yet available")
	// ErrTooLarge means a request, or the event it would become, exceeds a
	// size limit; the message names the limit.
	ErrTooLarge = errors.New("too large")
	// ErrRateLimited means a caller exceeded its rate limit; retrying
	// later succeeds.
	ErrRateLimited = errors.New("rate limited")
)

// ErrPolicyRefused means a write or read policy refused the request; it is
// a 403 with its own code so clients can tell it from a missing grant.
var ErrPolicyRefused = errors.New("refused by policy")
