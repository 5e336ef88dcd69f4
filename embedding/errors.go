package embedding

import "errors"

// Errors of the embedders.
var (
	// ErrEmbed wraps every failure to embed (network, status, bad reply).
	ErrEmbed = errors.New("embedding: failed")
	// ErrConfig wraps every problem Validate finds in a configuration.
	ErrConfig = errors.New("embedding: invalid configuration")
)
