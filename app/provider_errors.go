package app

import (
	"errors"
	"fmt"

	"github.com/cmem/cmem/domain"
	"github.com/cmem/cmem/llm"
)

// providerUnavailable marks a language-model failure inside a policy as the
// upstream outage it is (503), not an internal error.
func providerUnavailable(err error) error {
	if errors.Is(err, llm.ErrProvider) {
		return fmt.Errorf("%w: %w", domain.ErrUnavailable, err)
	}
	return err
}
