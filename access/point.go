package access

import (
	"fmt"
	"math"
	"time"
)

// Point names the moment a question is asked about: a log revision or a time.
type Point struct {
	byTime bool
	rev    uint64
	at     int64 // unix nanoseconds
}

// AtRevision is the state after the first rev events of the log.
func AtRevision(rev uint64) Point { return Point{rev: rev} }

// AtTime is the state in force at t.
func AtTime(t time.Time) Point { return Point{byTime: true, at: t.UnixNano()} }

// Latest is the state after every event applied so far.
func Latest() Point { return Point{rev: math.MaxUint64} }

// String describes p for logs and errors.
func (p Point) String() string {
	if p.byTime {
		return "time " + time.Unix(0, p.at).UTC().Format(time.RFC3339Nano)
	}
	if p.rev == math.MaxUint64 {
		return "latest"
	}
	return fmt.Sprintf("revision %d", p.rev)
}
