package offline

import (
	"regexp"
	"strings"
)

// A change is often said as a move: "target now moves from July 22 to
// July 31, 2026", "budget is revised from 236,000 USD to 222,000 USD".
// The value after "from" is past from then on, so an older recap that
// still states it ("target date July 22, budget 236,000 USD, …") is
// stale, however many of the question's words it holds. A clause newer
// than the move that states the old value again is left alone: it may
// be a later move back.

// movedRE is a change verb followed, within the clause, by "from A to"
// a new value; group 1 is A.
var movedRE = regexp.MustCompile(`(?i)\b(?:mov(?:e|es|ed|ing)|revis\w*|chang\w*|push\w*|shift\w*|updat\w*|reduc\w*|rais\w*|increas\w*|decreas\w*|lower\w*|cut|bump\w*|slip\w*|slid\w*|delay\w*|adjust\w*|dropp?\w*|trimm?\w*|narrow\w*|rotat\w*|switch\w*)\b[^.;]{0,60}?\bfrom\s+([^;]{1,40}?)\s+to\s+\S`)

// monthDayRE is a date's month and day ("July 22"), the part of a date
// a recap repeats without its year.
var monthDayRE = regexp.MustCompile(`(?i)\b(?:january|february|march|april|may|june|july|august|september|october|november|december)\s+\d{1,2}\b`)

// movedFrom returns the values text says a move left: its distinct
// tokens (distinctValue) and month-days, lower-cased; nil when text says
// no move.
func movedFrom(text string) []string {
	var out []string
	for _, m := range movedRE.FindAllStringSubmatch(text, -1) {
		for _, d := range monthDayRE.FindAllString(m[1], -1) {
			out = append(out, strings.ToLower(strings.Join(strings.Fields(d), " ")))
		}
		for _, f := range strings.Fields(m[1]) {
			if f = strings.Trim(f, ".,;:()'\"“”"); distinctValue(f) {
				out = append(out, strings.ToLower(f))
			}
		}
	}
	return out
}

// statesValue says whether text states v: a token of it, or a month-day
// not followed by another digit ("July 2" is not "July 22").
func statesValue(text, v string) bool {
	low := strings.ToLower(text)
	if monthDayRE.MatchString(v) {
		for from := 0; ; {
			i := strings.Index(low[from:], v)
			if i < 0 {
				return false
			}
			end := from + i + len(v)
			if end == len(low) || low[end] < '0' || low[end] > '9' {
				return true
			}
			from = end
		}
	}
	for _, f := range strings.Fields(low) {
		if strings.Trim(f, ".,;:()'\"“”") == v {
			return true
		}
	}
	return false
}

// marksMoved marks as stale the clauses, no newer than a move, that
// state a value the move left. The clause saying the move is not marked
// for the value it moves from.
func marksMoved(cls []clause) {
	for j := range cls {
		left := movedFrom(cls[j].text)
		for _, v := range left {
			for i := range cls {
				if i != j && cls[i].order >= cls[j].order && statesValue(cls[i].text, v) {
					cls[i].stale = true
				}
			}
		}
	}
}
