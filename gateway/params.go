package gateway

import (
	"fmt"
	"math"
	"strconv"
	"time"

	"github.com/cmem/cmem/domain"
)

// The instants a time.Duration can reach from the Unix epoch: outside them
// time arithmetic (t.Sub, UnixNano) overflows and answers wrongly, so
// they are refused rather than clamped.
var (
	minTime = time.Unix(0, math.MinInt64).UTC()
	maxTime = time.Unix(0, math.MaxInt64).UTC()
)

// parseTime reads an RFC 3339 instant named name (a query parameter or a
// body field) and refuses one outside the representable range.
func parseTime(name, s string) (time.Time, error) {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return t, fmt.Errorf("%w: %s must be RFC 3339 (e.g. 2026-11-22T10:00:00Z): %w", domain.ErrInvalid, name, err)
	}
	if err := checkTime(name, t); err != nil {
		return time.Time{}, err
	}
	return t, nil
}

// checkTime refuses an instant outside the representable range.
func checkTime(name string, t time.Time) error {
	if t.Before(minTime) || t.After(maxTime) {
		return fmt.Errorf("%w: %s must lie between %s and %s", domain.ErrInvalid, name,
			minTime.Format(time.RFC3339), maxTime.Format(time.RFC3339))
	}
	return nil
}

// parseWait reads a wait in seconds: a finite non-negative number, capped
// at limit (NaN, Inf and negatives are refused, never turned into "at once"
// or "forever").
func parseWait(s string, limit time.Duration) (time.Duration, error) {
	secs, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(secs) || math.IsInf(secs, 0) || secs < 0 {
		return 0, fmt.Errorf("%w: wait must be a finite non-negative number of seconds (at most %g)", domain.ErrInvalid, limit.Seconds())
	}
	if secs >= limit.Seconds() {
		return limit, nil
	}
	return time.Duration(secs * float64(time.Second)), nil
}
