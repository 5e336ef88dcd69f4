package gatemem

import (
	"sort"
	"time"
)

// Stats are one domain's timings.
type Stats struct {
	Turns       int
	TurnTime    time.Duration
	Checkpoints int
	AskTime     time.Duration
	// LeftOut lists the relationships cmem refused to import (its mapping
	// could not place them), each left out of its episode's import.
	LeftOut []string
}

func (s *Stats) addTurn(d time.Duration)       { s.Turns++; s.TurnTime += d }
func (s *Stats) addCheckpoint(d time.Duration) { s.Checkpoints++; s.AskTime += d }

// PerTurn is the mean time to ingest one turn.
func (s Stats) PerTurn() time.Duration { return per(s.TurnTime, s.Turns) }

// PerCheckpoint is the mean time to answer one checkpoint.
func (s Stats) PerCheckpoint() time.Duration { return per(s.AskTime, s.Checkpoints) }

func per(d time.Duration, n int) time.Duration {
	if n == 0 {
		return 0
	}
	return d / time.Duration(n)
}

// median of xs (0 for none).
func median(xs []int) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := append([]int(nil), xs...)
	sort.Ints(s)
	if len(s)%2 == 1 {
		return float64(s[len(s)/2])
	}
	return float64(s[len(s)/2-1]+s[len(s)/2]) / 2
}
