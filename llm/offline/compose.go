package offline

import (
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
	// itemParts is the fewest parts a question asks for its clauses to be
	// cut into their listed items (compose_items.go).
	itemParts = 3
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
		items[i] = itemAt{id: m.ID, value: m.Value}
	}
	cls := clausesIn(items, len(parts) >= itemParts)
	marksStale(cls)
	marksMoved(cls)
	marksNoLonger(cls)
	idf := clauseIDF(cls)
	subject := namedSubject(items, question)
	for w := range subject { // the record's name says nothing about which of its facts a clause states
		idf[w] = 0
	}
	for i := range cls {
		if echoes(cls[i], q, subject) || saysUnchanged(cls[i]) { // "That is now the current target date" answers nothing itself
			pointsBack(cls, i)
		}
	}
	if r, ok := composeWith(parts, q, cls, idf, need); ok || need == 1 {
		return r, ok
	}
	// No clause holds two of the question's words: one that holds a
	// part's own word still states it better than no answer ("the three
	// home items still active" against "Your current active list still
	// shows …").
	return composeWith(parts, q, cls, idf, 1)
}

// composeWith composes the answer from the clauses holding at least need
// of the question's words.
func composeWith(parts []askedPart, q map[string]bool, cls []clause, idf map[string]float64, need int) (llm.AnswerResult, bool) {
	scored := make([]partScores, len(parts))
	for k, p := range parts {
		scored[k] = scoreClauses(cls, p, q, idf, need)
	}
	var texts []string
	var shares []map[string]bool
	var from []string
	covered := make([]bool, len(parts))
	for k, p := range parts {
		i := scored[k].newerSame(cls, scored[k].pick(cls), p.head())
		if covered[k] || i < 0 {
			continue
		}
		text := cls[i].text
		if p.many { // a list is stated across the clauses of one sentence
			text = cls[i].sentence
		}
		if slices.ContainsFunc(texts, func(t string) bool { return strings.Contains(t, text) }) || restates(text, texts, p.own) {
			continue // already given by an earlier part
		}
		texts, shares, from = append(texts, text), append(shares, scored[k].part), append(from, cls[i].id)
		for _, j := range moreItems(scored[k], cls, i, p.count) { // "the three reminders", said one by one
			texts, shares, from = append(texts, cls[j].text), append(shares, scored[k].part), append(from, cls[j].id)
		}
		for l := k + 1; l < len(parts); l++ { // a clause that states a later part too answers it
			covered[l] = covered[l] || scored[l].near(i)
		}
	}
	lengths := make([]int, len(texts))
	for k, t := range texts {
		texts[k] = plainNo(t) // "does not have a hold" is "has no hold" (compose_plain_no.go)
		lengths[k] = len(strings.Fields(texts[k]))
	}
	budgets := fitShares(lengths, composeMaxWords)
	full := fullDates(cls)
	var out, cited []string
	words := 0
	for k, t := range texts {
		cut := cutTo(t, min(budgets[k], composeMaxWords-words), shares[k], q)
		text, years := withYears(cut, full)
		if words+len(strings.Fields(text)) > composeMaxWords { // a year never costs a part its place
			text, years = cut, nil
		}
		if n := len(strings.Fields(text)); n > 0 && words+n <= composeMaxWords {
			out, words = append(out, text+"."), words+n
			for _, id := range append([]string{from[k]}, years...) {
				if !slices.Contains(cited, id) {
					cited = append(cited, id)
				}
			}
		}
	}
	if len(out) == 0 {
		return llm.AnswerResult{}, false
	}
	return llm.AnswerResult{Response: strings.Join(out, " "), Cited: cited}, true
}
