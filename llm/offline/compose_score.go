package offline

import "math"

// How well each clause states one asked part, and which clause answers it.

// partScores is how well each clause states one asked part.
type partScores struct {
	part   map[string]bool
	scores []float64
	best   float64
	// own is the weight of the part's own words each clause holds: a
	// clause near the best must hold nearly as much of what sets the part
	// apart, not make up for it with the question's other words.
	own     []float64
	bestOwn float64
}

// scoreClauses scores the clauses for part p: the weight of p's words a
// clause holds, and a third of the weight of the question's other words,
// halved when the clause speaks of a value as past or only says how to read
// notes, raised when it states a value. A clause must hold one of p's words
// and need of the question's.
func scoreClauses(cls []clause, p askedPart, q map[string]bool, idf map[string]float64, need int) partScores {
	ps := partScores{part: p.own, scores: make([]float64, len(cls))}
	ps.own = make([]float64, len(cls))
	for i, c := range cls {
		var own, other float64
		hit := map[string]bool{}
		for _, w := range c.words {
			if hit[w] || !q[w] {
				continue
			}
			hit[w] = true
			if ps.part[w] {
				own += idf[w]
			} else {
				other += idf[w]
			}
		}
		if own == 0 || len(hit) < need {
			continue
		}
		s := own + other/3
		if c.stale {
			s /= 2
		}
		if c.hedge {
			s /= 2
		}
		if c.value {
			s *= composeValueWeight
		}
		ps.scores[i], ps.own[i] = s, own
		ps.best, ps.bestOwn = math.Max(ps.best, s), math.Max(ps.bestOwn, own)
	}
	return ps
}

// near says whether clause i states the part about as well as the best.
func (ps partScores) near(i int) bool {
	return ps.best > 0 && ps.scores[i] >= composeNear*ps.best && ps.own[i] >= composeNear*ps.bestOwn
}

// pick returns the newest clause near the best, -1 when none matches.
func (ps partScores) pick(cls []clause) int {
	pick := -1
	for i, c := range cls {
		if !ps.near(i) {
			continue
		}
		if pick < 0 || c.order < cls[pick].order || (c.order == cls[pick].order && ps.scores[i] > ps.scores[pick]) {
			pick = i
		}
	}
	return pick
}
