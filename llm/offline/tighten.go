package offline

import (
	"regexp"
	"strings"
)

// A chat turn that answers says more than the answer: "I'm playing this
// awesome fantasy RPG called "Xenoblade Chronicles", it's been a blast!"
// to "What game is Nate playing?". tighten keeps the part that answers.

var (
	// quotedRE is a title or a phrase in quotes.
	quotedRE = regexp.MustCompile(`["“]([^"”]{2,60})["”]`)
	// trailRE starts the comment that often follows what a turn tells:
	// "…, it was awesome!", "… and it's been a blast".
	trailRE = regexp.MustCompile(`(?i)(?:[,;!]|\s-\s|\s(?:and|but|so)\s+(?:it|that|this|i|we|they|he|she)(?:'s|'m|'re)?\s)`)
)

// maxAnswerWords bounds an answer tightened from a longer clause.
const maxAnswerWords = 12

// tighten is the part of text (already without what the question says)
// that answers a what, which, why or how question: a quoted title the
// question does not hold, else text up to the comment after it, at most
// maxAnswerWords words.
func tighten(question, text string) string {
	if q, ok := quotedTitle(question, text); ok {
		return q
	}
	t := strings.TrimSpace(text)
	cut := false
	if loc := trailRE.FindStringIndex(t); loc != nil && len(strings.Fields(t[:loc[0]])) >= 2 {
		t, cut = t[:loc[0]], true
	}
	if f := strings.Fields(t); len(f) > maxAnswerWords {
		t, cut = strings.Join(f[:maxAnswerWords], " "), true
	}
	if !cut {
		return t // a short answer as written
	}
	return strings.TrimRight(t, ",;:.!? ")
}

// quotedTitle is, for a what or which question, the first phrase in
// quotes in text that the question does not hold ("The Alchemist" to
// "What book did John reread?").
func quotedTitle(question, text string) (string, bool) {
	if answerKind(question) != kindWhat {
		return "", false
	}
	asked := strings.ToLower(question)
	for _, m := range quotedRE.FindAllStringSubmatch(text, -1) {
		if !strings.Contains(asked, strings.ToLower(m[1])) {
			return m[1], true
		}
	}
	return "", false
}
