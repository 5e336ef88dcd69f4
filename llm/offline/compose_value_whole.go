package offline

import (
	"regexp"
	"strings"
)

// An amount and its currency, or a date's day and its year, are one
// value: a cut that ends between them ("current amount 3,690." for
// "3,690 USD", "due May 19," for "May 19, 2026") states a different value
// — an amount in no currency, a date of no year. So a cut window that
// ends inside such a value is moved right to hold it whole, by as many
// words as it gains, when the words it drops from its start are not
// themselves part of the value.

// valueTailRE is a word that ends the value the word before it begins:
// a currency after a number, a year after a day.
var valueTailRE = regexp.MustCompile(`^(USD|EUR|GBP|CAD|AUD|JPY|CHF)\b|^\d{4}\b`)

// dayRE is a day of a month, a number with the comma a year follows.
var dayRE = regexp.MustCompile(`^\d{1,2},$`)

// figureRE is a word that is a number (an amount's figure).
var figureRE = regexp.MustCompile(`^[$€£]?\d[\d,.]*$`)

// continuesValue says whether next completes the value prev ends.
func continuesValue(prev, next string) bool {
	if !valueTailRE.MatchString(next) {
		return false
	}
	if strings.HasPrefix(next, "USD") || strings.HasPrefix(next, "EUR") || strings.HasPrefix(next, "GBP") ||
		strings.HasPrefix(next, "CAD") || strings.HasPrefix(next, "AUD") || strings.HasPrefix(next, "JPY") || strings.HasPrefix(next, "CHF") {
		return figureRE.MatchString(prev)
	}
	return dayRE.MatchString(prev)
}

// keepValueWhole returns the window [from, to) of fields moved right so
// that it does not end inside an amount or a date.
func keepValueWhole(fields []string, from, to int) (int, int) {
	for to < len(fields) && to-from > 2 && continuesValue(fields[to-1], fields[to]) {
		to++
		from++
	}
	return from, to
}
