package offline

import (
	"regexp"
	"strings"
)

// A note often gives a date without its year ("target date July 10")
// where another note the reader was shown gives the same date in full
// ("moves to July 10, 2026"): the answer states the date in full, so that
// it does not read as any July 10. Only when memory gives that day one
// year; and the note the year came from is cited with the answer, since
// the answer now derives from it too.

// datedDayRE is a month and day, with the year when one follows (see
// monthDayRE for the month and day alone).
var datedDayRE = regexp.MustCompile(`(?i)\b(January|February|March|April|May|June|July|August|September|October|November|December)\s+(\d{1,2})\b(,?\s+(?:19|20)\d\d\b)?`)

// fullDate is the year memory gives a month and day, and the note it is
// said in.
type fullDate struct {
	year, id string
}

// fullDates returns, for each month and day the clauses state with a
// year, that year and a clause's note; a day given two years is left out.
func fullDates(cls []clause) map[string]fullDate {
	out := map[string]fullDate{}
	twice := map[string]bool{}
	for _, c := range cls {
		for _, m := range datedDayRE.FindAllStringSubmatch(c.text, -1) {
			if m[3] == "" {
				continue
			}
			key := strings.ToLower(m[1]) + " " + m[2]
			year := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(m[3]), ","))
			if d, ok := out[key]; ok && d.year != year {
				twice[key] = true
			}
			if _, ok := out[key]; !ok {
				out[key] = fullDate{year: year, id: c.id}
			}
		}
	}
	for k := range twice {
		delete(out, k)
	}
	return out
}

// withYears returns text with each month and day that lacks a year given
// the one memory gives it, and the notes those years came from.
func withYears(text string, full map[string]fullDate) (string, []string) {
	var from []string
	out := datedDayRE.ReplaceAllStringFunc(text, func(s string) string {
		m := datedDayRE.FindStringSubmatch(s)
		if m[3] != "" {
			return s
		}
		d, ok := full[strings.ToLower(m[1])+" "+m[2]]
		if !ok {
			return s
		}
		from = append(from, d.id)
		return s + ", " + d.year
	})
	return out, from
}
