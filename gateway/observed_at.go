package gateway

import (
	"fmt"
	"time"

	"github.com/cmem/cmem/domain"
)

// parseObservedAt reads a write's observed_at: RFC 3339 (any offset) or a
// bare date YYYY-MM-DD, taken as midnight UTC. Empty is the zero time
// (the write time); the range is checked by app.
func parseObservedAt(s string) (time.Time, error) {
	if s == "" {
		return time.Time{}, nil
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		t, err = time.Parse(time.DateOnly, s)
	}
	if err == nil && t.IsZero() { // the zero time would read as "not given"
		return t, fmt.Errorf("%w: observed_at %s is before 1900-01-01", domain.ErrInvalid, s)
	}
	if err == nil {
		return t, nil
	}
	return time.Time{}, fmt.Errorf("%w: observed_at %q is neither RFC 3339 (2023-05-07T13:56:00Z) nor a date (2023-05-07)",
		domain.ErrInvalid, s)
}
