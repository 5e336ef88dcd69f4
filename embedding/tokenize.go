package embedding

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Tokenize returns the content words of text, in order, exactly as Hashing
// sees them:
//
//  1. Unicode lower-casing;
//  2. splitting on every rune that is neither a letter nor a digit;
//  3. dropping tokens of one rune and the English stop words of StopWord;
//  4. folding plurals: a token of more than four runes ending in "ies"
//     ends in "y" instead ("companies" → "company"); otherwise a token of
//     more than three runes ending in "s", but not in "ss", "us" or "is",
//     loses the "s" ("scores" → "score", but "class", "status", "analysis"
//     stay).
//
// Step 4 is a deliberate minimum of stemming: without it "game" and
// "games" share nothing, and routing by agent descriptions fails on the
// most common inflection in English.
func Tokenize(text string) []string {
	fields := strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
	out := fields[:0]
	for _, f := range fields {
		if utf8.RuneCountInString(f) < 2 || StopWord(f) {
			continue
		}
		out = append(out, foldPlural(f))
	}
	return out
}

func foldPlural(w string) string {
	n := utf8.RuneCountInString(w)
	switch {
	case n > 4 && strings.HasSuffix(w, "ies"):
		return w[:len(w)-3] + "y"
	case n > 3 && strings.HasSuffix(w, "s") &&
		!strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us") && !strings.HasSuffix(w, "is"):
		return w[:len(w)-1]
	}
	return w
}

// StopWord reports whether the lower-case word w is one of the English
// stop words Tokenize drops: articles, pronouns, auxiliaries, common
// prepositions and conjunctions, and question words.
func StopWord(w string) bool {
	_, ok := stopWords[w]
	return ok
}

var stopWords = func() map[string]struct{} {
	const list = `about above after again against all also am an and any are as at be because been before
being below between both but by can could did do does doing down during each few for from further had has
have having he her here hers herself him himself his how if in into is it its itself just me more most my
myself no nor not now of off on once only or other our ours ourselves out over own same she should so some
such than that the their theirs them themselves then there these they this those through to too under
until up very was we were what when where which while who whom why will with would you your yours
yourself yourselves`
	m := map[string]struct{}{}
	for _, w := range strings.Fields(list) {
		m[w] = struct{}{}
	}
	return m
}()
