package memory

import "errors"

var (
	// ErrBlocked is returned when a write policy refuses a fragment.
	ErrBlocked = errors.New("memory: write refused by policy")
	// ErrPolicyConfig is returned for a policy whose kind or config is not
	// understood; setting such a policy is refused up front.
	ErrPolicyConfig = errors.New("memory: invalid policy")
)
