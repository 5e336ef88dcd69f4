package access

import (
	"fmt"
	"math"
	"time"
)

// Point names the moment a question is asked about: a log revision, a
// time, or a revision judged at a wall clock (Now).
type Point struct {
	byTime bool
	rev    uint64
	at     int64 // unix nanoseconds
	clock  int64 // unix nanoseconds; 0 = no clock (by revision only)
}

// AtRevision is the state after the first rev events of the log. A grant
// with an expiry ends at its revision point only once its expired event is
// in the prefix: this is "what the log said at rev".
func AtRevision(rev uint64) Point { return Point{rev: rev} }

// AtTime is the state in force at t: a grant with an expiry at or before t
// has ended, whether or not its expired event was written yet.
func AtTime(t time.Time) Point { return Point{byTime: true, at: t.UnixNano()} }

// Now is the point every enforcement decision is made at: the graphs after
// the first rev events (a revision that passed the read fence, so every
// acknowledged revoke and expired event is in it), minus every edge whose
// grant's expiry is at or before clock (this process's wall clock). An
// expiry therefore takes effect at the earlier of the process's own clock
// reaching it and the expired event being acknowledged; see the package
// documentation for the bound across clocks.
func Now(rev uint64, clock time.Time) Point {
	return Point{rev: rev, clock: max(clock.UnixNano(), 1)}
}

// Latest is the state after every event applied so far.
func Latest() Point { return Point{rev: math.MaxUint64} }

// Clock returns the wall clock p is judged at: the time of a time point,
// the clock of a Now point, false for a plain revision point.
func (p Point) Clock() (time.Time, bool) {
	if ns, ok := p.instant(); ok {
		return time.Unix(0, ns).UTC(), true
	}
	return time.Time{}, false
}

// instant is the unix-nanosecond instant expiries are judged against;
// false for a plain revision point, at which only an expired event in the
// prefix ends an edge.
func (p Point) instant() (int64, bool) {
	if p.byTime {
		return p.at, true
	}
	return p.clock, p.clock != 0
}

// String describes p for logs and errors.
func (p Point) String() string {
	if p.byTime {
		return "time " + time.Unix(0, p.at).UTC().Format(time.RFC3339Nano)
	}
	if p.rev == math.MaxUint64 {
		return "latest"
	}
	if p.clock != 0 {
		return fmt.Sprintf("revision %d at %s", p.rev, time.Unix(0, p.clock).UTC().Format(time.RFC3339Nano))
	}
	return fmt.Sprintf("revision %d", p.rev)
}
