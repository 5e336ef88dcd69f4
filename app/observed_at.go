package app

import (
	"fmt"
	"time"

	"github.com/cmem/cmem/domain"
	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/internal/timeexpr"
)

// earliestObserved is the oldest observed time a write may give: older
// dates are almost always a parsing slip (year 0001, a two-digit year).
var earliestObserved = time.Date(1900, 1, 1, 0, 0, 0, 0, time.UTC)

// futureSlack is how far past now an observed time may lie: a day covers
// every time zone's "today" and small clock skew, while a fact observed
// next month is a mistake.
const futureSlack = 24 * time.Hour

// maxTimeRefs bounds the expressions kept per fragment (the event schema's
// limit); a text with more keeps the first ones, the rest stay text.
const maxTimeRefs = 64

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
// the event is the same wherever it was written) and resolves the time
// expressions of its key and value against it (or against recorded, the
// write time). An expression timeexpr cannot resolve ("recently", "on
// Saturday") is simply not listed: it stays in the text as written, and
// the write goes on.
func stampTime(fw *events.FragmentWritten, observed, recorded time.Time) {
	ref := recorded
	if !observed.IsZero() {
		at := observed.UTC()
		fw.ObservedAt, ref = &at, at
	}
	seen := map[string]bool{}
	for _, text := range []string{fw.Key, fw.Value} {
		for _, s := range timeexpr.Find(text, ref) {
			if len(fw.TimeRefs) == maxTimeRefs || len(s.Text) > 200 || seen[s.Text] {
				continue
			}
			seen[s.Text] = true
			fw.TimeRefs = append(fw.TimeRefs, events.TimeRef{Text: s.Text, Start: s.Start.Format(time.DateOnly),
				End: s.End.Format(time.DateOnly), Grain: string(s.Grain)})
		}
	}
}

// timeRefs is the API's form of a fragment's resolved expressions; one
// that does not read as dates (erased content) is left out.
func timeRefs(refs []events.TimeRef) []domain.TimeRef {
	var out []domain.TimeRef
	for _, r := range refs {
		st, err1 := time.Parse(time.DateOnly, r.Start)
		en, err2 := time.Parse(time.DateOnly, r.End)
		if err1 == nil && err2 == nil {
			out = append(out, domain.TimeRef{Text: r.Text, Start: st, End: en, Grain: r.Grain})
		}
	}
	return out
}
