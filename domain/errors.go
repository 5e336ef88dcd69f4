package domain

import "errors"

// Domain errors. Wrap them with %w and a message a caller can act on;
// adapters match them with errors.Is.
var (
	// ErrInvalid is a malformed request: a 400.
	ErrInvalid = errors.New("invalid request")
	// ErrUnauthenticated means no valid credentials.
	ErrUnauthenticated = errors.New("unauthenticated")
	// ErrForbidden means the caller may not do this.
	ErrForbidden = errors.New("forbidden")
	// ErrNotFound means the named thing does not exist (or is not the
	// caller's to know of).
	ErrNotFound = errors.New("not found")
	// ErrConflict means the request contradicts the current state.
	ErrConflict = errors.New("conflict")
	// ErrUnavailable means a projection did not reach the revision a read
	// needs within the configured wait, or a backend did not answer;
	// retrying later can succeed.
	ErrUnavailable = errors.New("not yet available")
	// ErrTooLarge means a request, or the event it would become, exceeds a
	// size limit; the message names the limit.
	ErrTooLarge = errors.New("too large")
	// ErrRateLimited means a caller exceeded its rate limit; retrying
	// later succeeds.
	ErrRateLimited = errors.New("rate limited")
	// ErrPolicyRefused means a write or read policy refused the request; it
	// is a 403 with its own code so clients can tell it from a missing grant.
	ErrPolicyRefused = errors.New("refused by policy")
)
