package offline

import (
	"regexp"
	"strings"
)

// Asked "how many kayaks", the count is the answer: "three", not "three
// kayaks" — the question already names what is counted, and repeating it
// says nothing more.

// countedNounRE catches the thing a how-many question counts: the word after
// "how many" (and up to two more before the verb).
var countedNounRE = regexp.MustCompile(`(?i)\bhow many\s+((?:[a-z-]+\s+){0,2}[a-z-]+)`)

// withoutCountedNoun drops the last word of a count span when it is the
// noun the question counts ("7 people" to "How many people came?" is
// "7"); any other span is returned as it is.
func withoutCountedNoun(question, span string) string {
	m := countedNounRE.FindStringSubmatch(question)
	f := strings.Fields(span)
	if m == nil || len(f) < 2 {
		return span
	}
	last := strings.ToLower(strings.Trim(f[len(f)-1], ".,;:!?"))
	for _, w := range strings.Fields(strings.ToLower(m[1])) {
		if w == last || stem(w) == stem(last) {
			return strings.Join(f[:len(f)-1], " ")
		}
	}
	return span
}
