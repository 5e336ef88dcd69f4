package offline

import (
	"regexp"
	"strings"
)

// A change is often said new value first: "the new access code is
// K-204, replacing the earlier K-199", "June 5 instead of May 30". The
// clause names a value as past, but only after it has stated the one that
// replaces it: it is the current statement of that value, not a past one.
// So its words up to the replacement are kept as a current clause, and
// the value it replaces stays past for every other clause.

// replacingRE is where a clause turns from its new value to the one it
// replaces.
var replacingRE = regexp.MustCompile(`(?i),?\s+(?:replacing|replaces|replaced|superseding|supersedes|instead of|in place of)\s`)

// newBeforeReplaced returns text up to where it names what its value
// replaces, when that part states a value of its own (a distinct token or
// a month and day); ok is false otherwise.
func newBeforeReplaced(text string) (string, bool) {
	loc := replacingRE.FindStringIndex(text)
	if loc == nil {
		return text, false
	}
	head := strings.TrimSpace(text[:loc[0]])
	if monthDayRE.MatchString(head) {
		return head, true
	}
	for _, f := range strings.Fields(head) {
		if distinctValue(strings.Trim(f, ".,;:()'\"“”")) {
			return head, true
		}
	}
	return text, false
}
