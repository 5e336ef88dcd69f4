package offline

import (
	"regexp"
	"slices"
)

// A value is restated without all the words of its first statement:
// "3,710 USD is the active private support amount" is followed by
// "current amount 3,690 USD". The later clause names what is asked (the
// part's head, "amount") and states a value of the same kind, so it is
// the newer value of the same thing, though it holds fewer of the
// question's words.

// valueKindREs are the kinds of value a clause states.
var valueKindREs = map[string]*regexp.Regexp{
	"amount": regexp.MustCompile(`(?i)\b\d[\d,.]*\s*(?:usd|eur|gbp|dollars?|euros?|%|percent)\b|[$€£]\s*\d`),
	"date":   regexp.MustCompile(`(?i)\b` + monthNames + `\.?\s+\d{1,2}\b|\b\d{4}-\d{2}-\d{2}\b`),
	"code":   regexp.MustCompile(`\b[A-Za-z]+[-_][A-Za-z0-9_-]*\d[A-Za-z0-9_-]*\b|\b[A-Z]{2,}-?\d+\b`),
}

// valueKinds returns the kinds of value text states.
func valueKinds(text string) map[string]bool {
	out := map[string]bool{}
	for k, re := range valueKindREs {
		if re.MatchString(text) {
			out[k] = true
		}
	}
	return out
}

// newerSame returns the newest clause newer than clause i that names
// head and states a value of a kind clause i states, scoring at least
// half the best; i when there is none.
func (ps partScores) newerSame(cls []clause, i int, head string) int {
	if i < 0 || head == "" {
		return i
	}
	kinds := valueKinds(cls[i].text)
	if len(kinds) == 0 {
		return i
	}
	pick := i
	for j, c := range cls {
		if c.order >= cls[pick].order || ps.scores[j] < ps.best/2 || c.stale || c.hedge || c.asks || !slices.Contains(c.words, head) {
			continue
		}
		for k := range valueKinds(c.text) {
			if kinds[k] {
				pick = j
				break
			}
		}
	}
	return pick
}

// headKinds are the kinds of value a part's head asks for: "the support
// amount" asks for an amount. Codes are not listed: valueKindREs knows
// only some of their shapes ("7Q2D-K4MX" is none of them).
var headKinds = map[string]string{"amount": "amount", "date": "date"}

// statesKindAsked says whether text states a value of the kind p's head
// asks for, or p's head asks for no kind: "still excludes the exact
// amount" beside a release's end date states no amount, so it gains
// nothing as a statement of the amount for holding a date.
func statesKindAsked(text string, p askedPart) bool {
	at := headAt(p)
	if at < 0 {
		return true
	}
	kind, ok := headKinds[p.words[at]]
	return !ok || valueKinds(text)[kind]
}
