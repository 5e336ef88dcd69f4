package audit

import (
	"fmt"

	"github.com/cmem/cmem/domain"
)

// Errors of the audit use cases. They wrap package domain's errors, so
// adapters map them like any other use case's (gateway/errors.go).
var (
	// ErrStoreUnavailable means ClickHouse did not answer; the audit
	// projector catches up once it is back, so retrying later can succeed.
	ErrStoreUnavailable = fmt.Errorf("audit: clickhouse unavailable: %w", domain.ErrUnavailable)
	// ErrNotFresh means the backend had not reached the requested
	// min_revision within the configured wait.
	ErrNotFresh = fmt.Errorf("audit: trail not fresh enough: %w", domain.ErrUnavailable)
	// ErrBadQuery is a malformed audit question (missing or invalid
	// parameter, inverted window).
	ErrBadQuery = fmt.Errorf("audit: %w", domain.ErrInvalid)
)
