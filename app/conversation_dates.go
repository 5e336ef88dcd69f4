package app

import (
	"strings"
	"unicode"
)

// namedIn says whether text names scope s. A record is named by its
// owner's first name, and some first names are months or days ("June",
// "April", "May"): followed by a day's number ("Tuesday June 9 at 9:00
// AM") the word is a date, not the person, and a schedule said without
// naming its patient would otherwise go to the record of a colleague
// called June (with the speaker's own, so that no one read it).
func (s scopeInfo) namedIn(text string) bool {
	if s.name == nil {
		return false
	}
	for _, m := range s.name.FindAllStringIndex(text, -1) {
		if s.record && calendarWords[strings.ToLower(text[m[0]:m[1]])] && startsWithDigit(text[m[1]:]) {
			continue
		}
		return true
	}
	return false
}

// startsWithDigit: rest begins, after spaces, with a digit.
func startsWithDigit(rest string) bool {
	rest = strings.TrimLeft(rest, " ")
	return rest != "" && unicode.IsDigit(rune(rest[0]))
}
