package offline

import "math"

// leadWeight is the share of its weight a word before the part's head keeps.
const leadWeight = 0.25

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
// clause holds, and a third of the weight of the question's words no
// other part owns,
// halved when the clause speaks of a value as past or only says how to read
// notes, raised when it states a value. A clause must hold one of p's words
// and need of the question's, and must not itself ask (asks).
func scoreClauses(cls []clause, p askedPart, q map[string]bool, idf map[string]float64, need int) partScores {
	ps := partScores{part: p.own, scores: make([]float64, len(cls))}
	ps.own = make([]float64, len(cls))
	for i, c := range cls {
		var own, other float64
		core := false // holds a word of the part that says what, not only which
		hit := map[string]bool{}
		for _, w := range c.words {
			if hit[w] || !q[w] {
				continue
			}
			hit[w] = true
			switch {
			case ps.part[w] && p.lead[w]:
				own += leadWeight * wordWeight(w, idf)
				core = true
			case ps.part[w] && p.modifier[w]: // "for the Monsoon incident" says which, not what
				own += modifierWeight * wordWeight(w, idf)
			case ps.part[w]:
				own += wordWeight(w, idf)
				core = true
			case !p.others[w]: // another part's own word says the clause states that part
				other += wordWeight(w, idf)
			}
		}
		if own == 0 || c.asks || (len(hit) < need && holds(c.around, q) < need) || (!core && p.byName) { // "for Kestrel Survey" says which, not what: a clause holding only the name states nothing asked
			continue
		}
		s := own + other/3
		if c.stale {
			s /= 2
		}
		if c.hedge {
			s /= 2
		}
		if !p.howMany && onlyCounts(c.text, p.own) { // "one blocker still open" says how many, not which
			s /= countedDiscount
		}
		if c.value && statesKindAsked(c.text, p) { // a date in a clause is no statement of an amount
			s *= composeValueWeight
		}
		ps.scores[i], ps.own[i] = s, own
		ps.best = math.Max(ps.best, s)
	}
	// The own weight to come near is that of the clauses that score near
	// the best: a clause holding more of the part's words but scoring far
	// below (a request that echoes the question) must not leave no
	// clause near.
	ps.dropStale(cls)
	for i, s := range ps.scores {
		if ps.best > 0 && s >= composeNear*ps.best {
			ps.bestOwn = math.Max(ps.bestOwn, ps.own[i])
		}
	}
	return ps
}

// near says whether clause i states the part about as well as the best.
func (ps partScores) near(i int) bool {
	return ps.best > 0 && ps.scores[i] >= composeNear*ps.best && ps.own[i] >= composeNear*ps.bestOwn
}

// pick returns the newest clause near the best (the best itself when
// none is near on both counts), -1 when none matches.
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
	if pick < 0 && ps.best > 0 { // none comes near on both counts: the best scoring answers
		for i, s := range ps.scores {
			if s == ps.best {
				return i
			}
		}
	}
	return pick
}

// dropStale leaves the stale clauses out when a current clause states the
// part too: an older recap holding more of the part's words ("target date
// July 10, budget 236,000 USD") must not push out the newer statement of
// its value ("the current target remains July 31"). A stale clause
// answers only when nothing current does.
func (ps *partScores) dropStale(cls []clause) {
	// a current clause must state the part at least half as well as the
	// best stale one: "Broad summaries are fine for support" does not
	// push out "3,470 USD is still the provisional support amount"; and
	// when a stale clause states a value, a current one must state one
	// too: "only authorized staff should discuss the exact amount" names
	// no amount, so the provisional one is still the answer
	var staleBest float64
	staleValue := false
	for i, s := range ps.scores {
		if cls[i].stale {
			staleBest = math.Max(staleBest, s)
			staleValue = staleValue || (s > 0 && cls[i].value)
		}
	}
	current := false
	for i, s := range ps.scores {
		current = current || (s > 0 && !cls[i].stale && s >= staleBest/2 && (cls[i].value || !staleValue))
	}
	if !current {
		return
	}
	ps.best = 0
	for i, s := range ps.scores {
		if cls[i].stale {
			ps.scores[i], ps.own[i] = 0, 0
			continue
		}
		ps.best = math.Max(ps.best, s)
	}
}

// holds returns how many distinct words of q are among words.
func holds(words []string, q map[string]bool) int {
	seen := map[string]bool{}
	for _, w := range words {
		if q[w] {
			seen[w] = true
		}
	}
	return len(seen)
}
