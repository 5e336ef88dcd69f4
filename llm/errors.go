package llm

import "errors"

// Errors besides ErrProvider (declared with the interface). Each of them
// is returned wrapped together with ErrProvider, so errors.Is(err,
// ErrProvider) stays the one test a caller needs.
var (
	// ErrConfig wraps every problem Validate finds in a configuration.
	ErrConfig = errors.New("llm: invalid configuration")
	// ErrNotOffered marks a model's choice of an agent or tool that was not
	// offered to it.
	ErrNotOffered = errors.New("llm: choice not offered")
	// ErrMode is an unknown Transform mode.
	ErrMode = errors.New("llm: unknown transform mode")
	// ErrTier is an unknown Extract tier.
	ErrTier = errors.New("llm: unknown tier")
)
