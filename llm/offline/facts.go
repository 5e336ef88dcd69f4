package offline

import (
	"regexp"
	"strings"
	"unicode"
)

// The words and sentences of a record's facts, as the composer
// (compose.go) reads them for AnswerRequest.Facts.

// factSentenceRE ends a sentence at . ! or ? followed by a space or the
// end, so "12.5 mg" stays whole; it cuts after "Dr." and "St.", which
// factSentences (compose_abbrev.go) joins back.
var factSentenceRE = regexp.MustCompile(`(?:[^.!?]|[.!?]+[^\s.!?])+(?:[.!?]+["'”’]?|$)`)

// factStop are question words that say what kind of answer is wanted,
// not what it is about.
var factStop = map[string]bool{
	"what": true, "which": true, "when": true, "where": true, "who": true, "whom": true, "whose": true, "how": true,
	"the": true, "and": true, "are": true, "is": true, "was": true, "were": true, "does": true, "did": true, "for": true,
	"now": true, "current": true, "currently": true, "give": true, "tell": true, "me": true, "us": true, "our": true,
	"this": true, "that": true, "these": true, "those": true, "with": true, "any": true, "still": true, "right": true,
	"point": true, "as": true, "of": true, "can": true, "use": true, "should": true, "we": true, "you": true, "your": true,
	"summarize": true, "summary": true, "status": true, "state": true, "exact": true, "please": true, "from": true, "about": true,
	"have": true, "has": true, "there": true, "their": true, "its": true, "them": true, "they": true, "also": true,
}

func factWords(s string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		if len(w) >= 3 && !factStop[w] && !countWords[w] {
			w = singular(w)
			if len(w) > 6 { // a crude stem: "approved" ~ "approval"
				w = w[:6]
			}
			out = append(out, w)
		}
	}
	return out
}

// singular drops a plural's s ("visits" ~ "visit", "labs" ~ "lab"): the
// question asks for "the booked visits", the note says "injection visit".
// Words ending in ss, us or is ("class", "status", "diagnosis") keep it.
func singular(w string) string {
	if len(w) < 4 || !strings.HasSuffix(w, "s") {
		return w
	}
	switch w[len(w)-2] {
	case 's', 'u', 'i':
		return w
	}
	return w[:len(w)-1]
}
