package app

import (
	"cmp"
	"slices"
	"strings"
	"time"
)

// timedHit is an admitted hit of a view with its first score and the time
// its fact was observed (zero for a fragment the registry does not hold
// yet).
type timedHit struct {
	id    string
	score float64
	at    time.Time
}

// known says whether the hit's observed time is known.
func (h timedHit) known() bool { return !h.at.IsZero() }

// withContext returns each hit's score plus its episode's and its
// neighbours' terms (see rescore.go). It reads only hits: what the reader
// may see.
func withContext(hits []timedHit) map[string]float64 {
	byTime := slices.Clone(hits)
	slices.SortStableFunc(byTime, func(x, y timedHit) int {
		if c := x.at.Compare(y.at); c != 0 {
			return c
		}
		return strings.Compare(x.id, y.id)
	})
	episode := episodes(byTime)
	best := map[int][]float64{}
	for i, h := range byTime {
		best[episode[i]] = append(best[episode[i]], h.score)
	}
	bonus := make(map[int]float64, len(best))
	for e, ss := range best {
		slices.SortFunc(ss, func(x, y float64) int { return cmp.Compare(y, x) })
		var sum float64
		for _, s := range ss[:min(EpisodeTop, len(ss))] {
			sum += s
		}
		bonus[e] = EpisodeWeight * sum / EpisodeTop
	}
	out := make(map[string]float64, len(hits))
	for i, h := range byTime {
		out[h.id] = h.score + bonus[episode[i]] + NeighbourWeight*bestNeighbour(byTime, episode, i)
	}
	return out
}

// episodes numbers the episode of each of byTime's hits (sorted by time):
// a new one starts after a gap longer than EpisodeGap, and a hit of
// unknown time is an episode of its own.
func episodes(byTime []timedHit) []int {
	out := make([]int, len(byTime))
	n := 0
	for i, h := range byTime {
		if i > 0 && (!h.known() || !byTime[i-1].known() || h.at.Sub(byTime[i-1].at) > EpisodeGap) {
			n++
		}
		out[i] = n
	}
	return out
}

// bestNeighbour is the best first score among the hits of byTime[i]'s
// episode observed within NeighbourWindow of it, 0 when there is none.
func bestNeighbour(byTime []timedHit, episode []int, i int) float64 {
	if !byTime[i].known() {
		return 0
	}
	best := 0.0
	for j := i - 1; j >= 0 && episode[j] == episode[i] && byTime[i].at.Sub(byTime[j].at) <= NeighbourWindow; j-- {
		best = max(best, byTime[j].score)
	}
	for j := i + 1; j < len(byTime) && episode[j] == episode[i] && byTime[j].at.Sub(byTime[i].at) <= NeighbourWindow; j++ {
		best = max(best, byTime[j].score)
	}
	return best
}
