package offline

import (
	"strings"
	"unicode"
)

// The record a question is about is named in it ("the current Lighthouse
// budget", "Maria's dose"). A common word most retrieved items hold is
// not that name when the question does not name it: ten notes about a
// budget all hold "approved" and "budget", and taking those for the
// record's name leaves the budget part with no word to match.

// namedWords returns the factWords of the question's capitalised words
// after its first (the first is capitalised as the sentence's start).
func namedWords(question string) map[string]bool {
	out := map[string]bool{}
	for i, f := range strings.Fields(question) {
		f = strings.TrimLeft(f, "\"'“‘(")
		if i == 0 || f == "" || !unicode.IsUpper([]rune(f)[0]) {
			continue
		}
		for _, w := range factWords(f) {
			out[w] = true
		}
	}
	return out
}

// namedSubject returns the subject words (subjectWords) the question
// names.
func namedSubject(items []itemAt, question string) map[string]bool {
	named := namedWords(question)
	out := map[string]bool{}
	for w := range subjectWords(items) {
		if named[w] {
			out[w] = true
		}
	}
	return out
}
