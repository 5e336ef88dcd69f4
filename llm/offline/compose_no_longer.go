package offline

import (
	"regexp"
	"strings"
)

// A value that is no figure is retired in words: "the blocker is no
// longer the supervisor addendum; it is now the background form". What
// follows "is no longer the" is past from then on, so a clause, no newer
// than that note, that names it ("the supervisor addendum remains the
// blocker") is stale, as is the note's own clause naming it; a newer
// clause naming it again is left alone (it may be a change back).

// noLongerRE is a state named as past: group 1 is the words after the
// determiner, up to the clause's end or its next punctuation.
var noLongerRE = regexp.MustCompile(`(?i)\b(?:is|are|was|were)\s+no\s+longer\s+(?:the|a|an)\s+([^.,;:!?]+)`)

// noLongerWords is the fewest words a retired phrase has: one word
// ("the blocker is no longer the form") names too little to match on.
const noLongerWords = 2

// retiredPhrase returns the phrase text names as no longer so,
// lower-cased; ok is false when it names none.
func retiredPhrase(text string) (string, bool) {
	m := noLongerRE.FindStringSubmatch(text)
	if m == nil {
		return "", false
	}
	phrase := strings.ToLower(strings.Join(strings.Fields(m[1]), " "))
	return phrase, len(strings.Fields(phrase)) >= noLongerWords
}

// marksNoLonger marks as stale the clauses, no newer than the one
// retiring a phrase, that name it.
func marksNoLonger(cls []clause) {
	for j := range cls {
		phrase, ok := retiredPhrase(cls[j].text)
		if !ok {
			continue
		}
		for i := range cls {
			if cls[i].order >= cls[j].order && holdsPhrase(cls[i].text, phrase) {
				cls[i].stale = true
			}
		}
	}
}

// holdsPhrase says whether text holds phrase as whole words.
func holdsPhrase(text, phrase string) bool {
	low := " " + strings.ToLower(strings.Join(strings.FieldsFunc(text, func(r rune) bool {
		return r == ' ' || r == ',' || r == '.' || r == ';' || r == ':' || r == '\'' || r == '"'
	}), " ")) + " "
	return strings.Contains(low, " "+phrase+" ")
}
