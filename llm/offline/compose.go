package offline

import (
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/cmem/cmem/llm"
)

// Composed answers (AnswerRequest.Facts): for each part the question asks
// (askedParts), the one clause of memory that states it now — the newest
// of the clauses that match the part about as well as the best, a clause
// that speaks of a value as past or only says how to read notes counting
// for less — cut to its share of at most composeMaxWords words. A user who
// asks a record's current state wants each value once, current, short;
// every clause is memory's own, so the answer cites what it rests on and
// adds no word of its own.

const (
	composeMaxWords = 40
	// composeNear is how close to the best match a newer clause must come
	// to be preferred for being newer.
	composeNear = 0.75
	// composeMinShare is the fewest words a part's clause is cut to.
	composeMinShare = 6
	// composeValueWeight raises a clause that states a value (a date, an
	// amount, an identifier) over one that only speaks of its subject:
	// "target date August 5, 2026" over "… before launch".
	composeValueWeight = 1.5
	// composeSubjectItems is the fewest items among which a word most of
	// them hold is taken for their subject.
	composeSubjectItems = 4
)

// composeAnswer composes the answer; ok is false when no clause matches
// the question.
func composeAnswer(question string, memory []llm.MemoryItem) (llm.AnswerResult, bool) {
	parts := askedParts(question)
	q := map[string]bool{}
	for _, p := range parts {
		for _, w := range p.words {
			q[w] = true
		}
	}
	if len(q) == 0 {
		return llm.AnswerResult{}, false
	}
	need := 2
	if len(q) <= 2 {
		need = 1
	}
	sorted := append([]llm.MemoryItem(nil), memory...)
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].ObservedAt.After(sorted[j].ObservedAt) })
	items := make([]itemAt, len(sorted))
	for i, m := range sorted {
		items[i] = itemAt{id: m.ID, value: m.Value, at: m.ObservedAt}
	}
	cls := clausesOf(items)
	marksStale(cls)
	idf := clauseIDF(cls)
	for w := range subjectWords(items) { // the record's name says nothing about which of its facts a clause states
		idf[w] = 0
	}
	scored := make([]partScores, len(parts))
	for k, p := range parts {
		scored[k] = scoreClauses(cls, p, q, idf, need)
	}
	var chosen []int
	var shares []map[string]bool
	covered := make([]bool, len(parts))
	for k := range parts {
		i := scored[k].pick(cls)
		if covered[k] || i < 0 {
			continue
		}
		chosen, shares = append(chosen, i), append(shares, scored[k].part)
		for l := k + 1; l < len(parts); l++ { // a clause that states a later part too answers it
			covered[l] = covered[l] || scored[l].near(i)
		}
	}
	var out, cited []string
	words := 0
	for k, i := range chosen {
		share := max(composeMinShare, (composeMaxWords-words)/(len(chosen)-k))
		text := cutTo(cls[i].text, min(share, composeMaxWords-words), shares[k], q)
		if n := len(strings.Fields(text)); n > 0 && words+n <= composeMaxWords {
			out, words = append(out, text+"."), words+n
			if !slices.Contains(cited, cls[i].id) {
				cited = append(cited, cls[i].id)
			}
		}
	}
	if len(out) == 0 {
		return llm.AnswerResult{}, false
	}
	return llm.AnswerResult{Response: strings.Join(out, " "), Cited: cited}, true
}

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

// subjectWords are the words more than half of the items hold (the name
// of the record they are about), when there are enough items to tell.
func subjectWords(items []itemAt) map[string]bool {
	out := map[string]bool{}
	if len(items) < composeSubjectItems {
		return out
	}
	n := map[string]int{}
	for _, m := range items {
		seen := map[string]bool{}
		for _, w := range factWords(m.value) {
			if !seen[w] {
				seen[w] = true
				n[w]++
			}
		}
	}
	for w, k := range n {
		if 2*k > len(items) {
			out[w] = true
		}
	}
	return out
}

// clauseIDF weighs a word by how few clauses hold it: "budget" says more
// about what a clause is than the project's name every clause holds.
func clauseIDF(cls []clause) map[string]float64 {
	df := map[string]int{}
	for _, c := range cls {
		seen := map[string]bool{}
		for _, w := range c.words {
			if !seen[w] {
				seen[w] = true
				df[w]++
			}
		}
	}
	idf := make(map[string]float64, len(df))
	for w, n := range df {
		idf[w] = math.Log(1 + float64(len(cls))/float64(n))
	}
	return idf
}
