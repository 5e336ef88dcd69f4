package app

import (
	"fmt"
	"time"

	"github.com/cmem/cmem/domain"
	"github.com/cmem/cmem/events"
)

// earliestObserved is the oldest observed time a write may give: older
// dates are almost always a parsing slip (year 0001, a two-digit year).
var earliestObserved = time.Date(1900, 1, 1, 0, 0, 0, 0, time.UTC)

// futureSlack is how far past now an observed time may lie: a day covers
// every time zone's "today" and small clock skew, while a fact observed
// next month is a mistake.
const futureSlack = 24 * time.Hour

// CheckObservedAt refuses an observed time before 1900 or more than a day
// after now; zero (not given) is always fine.
func CheckObservedAt(at, now time.Time) error {
	if at.IsZero() {
		return nil
	}
	if at.Before(earliestObserved) {
		return fmt.Errorf("%w: observed_at %s is before 1900-01-01", domain.ErrInvalid, at.Format(time.RFC3339))
	}
	if at.After(now.Add(futureSlack)) {
		return fmt.Errorf("%w: observed_at %s is more than a day in the future (now %s)", domain.ErrInvalid,
			at.Format(time.RFC3339), now.UTC().Format(time.RFC3339))
	}
	return nil
}

// stampTime sets fw's observed time when the writer gave one (in UTC, so
// the event is the same wherever it was written).
func stampTime(fw *events.FragmentWritten, observed time.Time) {
	if observed.IsZero() {
		return
	}
	at := observed.UTC()
	fw.ObservedAt = &at
}
