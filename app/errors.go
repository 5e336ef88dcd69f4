package app

import "github.com/cmem/cmem/domain"

// Domain errors, defined once in package domain (so packages with use cases
// of their own, like audit, share them without importing app). Adapters map
// them to their protocol in one place (for HTTP: gateway/errors.go); wrap
// them with %w and a message a caller can act on.
var (
	ErrInvalid         = domain.ErrInvalid
	ErrUnauthenticated = domain.ErrUnauthenticated
	ErrForbidden       = domain.ErrForbidden
	ErrNotFound        = domain.ErrNotFound
	ErrConflict        = domain.ErrConflict
	// ErrUnavailable means a projection did not reach the revision a read
	// needs within the configured wait; retrying later can succeed.
	ErrUnavailable = domain.ErrUnavailable
	// ErrTooLarge means a request, or the event it would become, exceeds a
	// size limit; the message names the limit.
	ErrTooLarge = domain.ErrTooLarge
	// ErrRateLimited means a caller exceeded its rate limit; retrying
	// later succeeds.
	ErrRateLimited = domain.ErrRateLimited
	// ErrPolicyRefused means a write or read policy refused the request; it
	// is a 403 with its own code so clients can tell it from a missing grant.
	ErrPolicyRefused = domain.ErrPolicyRefused
)
