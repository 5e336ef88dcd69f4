package offline

import (
	"regexp"
	"slices"
)

// "What is the current target date?" is answered by "the launch moves
// from July 18 to July 25, 2026", which never says "date": a clause that
// states a whole calendar date holds the word. Only a date with its year
// counts — "July 25 is now the pilot target" restates a date in passing,
// the full date is the statement of it.

// fullDateRE is a calendar date with its year ("July 25, 2026").
var fullDateRE = regexp.MustCompile(`(?i)\b(?:january|february|march|april|may|june|july|august|september|october|november|december)\s+\d{1,2},?\s+(?:19|20)\d\d\b`)

// clauseWords returns the composeWords of a clause's text, with "date"
// when it states a full date.
func clauseWords(text string) []string {
	words := composeWords(text)
	if fullDateRE.MatchString(text) && !slices.Contains(words, "date") {
		words = append(words, "date")
	}
	return words
}
