package offline

import (
	"regexp"
	"strings"
)

// Asked how someone described a thing ("How did Ines describe the
// lake?"), the turn often judges several things: "we hiked through the
// mountains and it was fantastic! The lake was breathtaking." The word
// that answers is the one said of the thing asked about: the judgement
// whose subject (the words of its clause before the verb) names a word of
// the question.

// clauseStartRE ends the clause before a verb of being: a sentence or
// clause mark, or a conjunction that opens a new clause.
var clauseStartRE = regexp.MustCompile(`(?i)(?:[.,;:!?()\x{2014}-]|\b(?:and|but|so|because|while|when|then)\b)`)

// feelVerbs are the question's own words for asking about a feeling; they
// name no thing the feeling is about.
var feelVerbs = map[string]bool{"feel": true, "felt": true, "feeling": true, "describe": true, "described": true, "describes": true}

// feltAbout is the sentence of c's turn that judges a thing the question
// names (see above), or c when none does or c already does.
func feltAbout(question string, c rankedSentence, cands []rankedSentence) rankedSentence {
	if answerKind(question) != kindFeel || c.id == "" {
		return c
	}
	asked := map[string]bool{}
	for _, w := range contentWords(question) {
		if !feelVerbs[w] {
			asked[stem4(w)] = true
		}
	}
	for _, n := range askedNames(question) {
		for _, w := range contentWords(n) {
			delete(asked, stem4(w)) // the person asked about is no thing judged
		}
	}
	if judgesAsked(c.text, asked) {
		return c
	}
	for _, x := range cands {
		if x.id == c.id && x.text != c.text && judgesAsked(x.text, asked) {
			return x
		}
	}
	return c
}

// judgesAsked reports whether sentence says a word of feeling (feelSpan's)
// whose clause before the verb holds a word of asked.
func judgesAsked(sentence string, asked map[string]bool) bool {
	_, text := speakerLabel(sentence)
	for _, m := range feelSpanRE.FindAllStringSubmatchIndex(text, -1) {
		if notFeelings[strings.ToLower(text[m[4]:m[5]])] {
			continue
		}
		before := text[:m[0]]
		if ends := clauseStartRE.FindAllStringIndex(before, -1); len(ends) > 0 {
			before = before[ends[len(ends)-1][1]:]
		}
		for _, w := range contentWords(before) {
			if asked[stem4(w)] {
				return true
			}
		}
	}
	return false
}

// stem4 is a word's first four letters (all of a shorter word): "views"
// and "view", "described" and "describe" meet.
func stem4(w string) string {
	if len(w) > 4 {
		return w[:4]
	}
	return w
}
