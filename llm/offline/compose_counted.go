package offline

import (
	"regexp"
	"strings"
)

// "One dependency is still open" says how many dependencies there are,
// not which: asked "what is the current dependency?", a clause that only
// counts the thing asked answers less than one that names it ("the only
// open dependency is the freight elevator permit"), however new. Asked
// "how many dependencies are open?", the count is the answer.

// countedDiscount divides the score of a clause that only counts the
// thing asked: its state words ("still open") may match the question as
// well as the naming clause's do, so halving, as for a hedge, is not
// enough to let the clause that names it come first.
const countedDiscount = 4

// howManyRE is a part that asks for a count.
var howManyRE = regexp.MustCompile(`(?i)\bhow\s+many\b|\bnumber\s+of\b|\bcount\s+of\b`)

// countingWords are the words that count a thing.
var countingWords = map[string]bool{"one": true, "two": true, "three": true, "four": true, "five": true, "six": true,
	"seven": true, "eight": true, "nine": true, "ten": true, "several": true, "multiple": true, "many": true, "few": true}

// countedStateWords are the words that may follow a counted thing and
// still name none of it: "one dependency still open", "two items remain
// outstanding".
var countedStateWords = map[string]bool{"still": true, "open": true, "remain": true, "remains": true, "remaining": true,
	"left": true, "outstanding": true, "pending": true, "active": true, "unresolved": true, "is": true, "are": true,
	"now": true, "currently": true, "in": true, "place": true, "at": true, "this": true, "point": true}

// countedModifiers is the most words between a count and the thing it
// counts: "one open logistics blocker".
const countedModifiers = 2

// onlyCounts says whether text counts a thing named by one of the words
// own (composeWords stems) and says nothing of which it is: a count word
// shortly before the thing, and only state words after it. A numeral is
// no count here: "bay 07 site" and "July 12, 2026 review date" name.
func onlyCounts(text string, own map[string]bool) bool {
	fields := strings.Fields(strings.ToLower(text))
	for i, f := range fields {
		if !countingWords[strings.Trim(f, ".,;:!?()'\"")] {
			continue
		}
		for j := i + 1; j < len(fields) && j <= i+1+countedModifiers; j++ {
			if !holdsOwn(fields[j], own) {
				continue
			}
			if strings.ContainsAny(fields[j], ":") { // "one open dependency: the elevator permit" names it
				return false
			}
			for _, g := range fields[j+1:] {
				if !countedStateWords[strings.Trim(g, ".,;!?()'\"")] {
					return false
				}
			}
			return true
		}
	}
	return false
}

// holdsOwn says whether field is one of the words own.
func holdsOwn(field string, own map[string]bool) bool {
	for _, w := range composeWords(field) {
		if own[w] {
			return true
		}
	}
	return false
}
