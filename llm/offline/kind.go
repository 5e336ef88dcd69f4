package offline

import (
	"regexp"
	"strings"
)

// Kinds of answer a question asks for, by its question word.
const (
	kindWhen     = "when"     // a date or time
	kindWho      = "who"      // a name
	kindWhere    = "where"    // a place
	kindQuantity = "quantity" // a number
	kindWhy      = "why"      // a reason
	kindYesNo    = "yesno"    // "Yes" or "No" and a short reason
	kindWhat     = "what"     // a short noun phrase
)

var (
	whenRE     = regexp.MustCompile(`(?i)^(when\b|what (year|date|day|month|time|week|weekend)\b|which (year|date|day|month|week|weekend)\b|in what year\b|in which year\b|how long ago\b|since when\b)`)
	whoRE      = regexp.MustCompile(`(?i)^(who|whom|whose)\b`)
	whereRE    = regexp.MustCompile(`(?i)^(where\b|what (city|country|town|place|state)\b|which (city|country|town|place|state)\b|in what (city|country|town|place)\b)`)
	quantityRE = regexp.MustCompile(`(?i)^(how (many|much|long|old|far|often)\b|what (number|percentage|amount)\b)`)
	whyRE      = regexp.MustCompile(`(?i)^why\b`)
	yesNoRE    = regexp.MustCompile(`(?i)^(is|are|was|were|do|does|did|can|could|has|have|had|will|would|should)\b`)
	whatRE     = regexp.MustCompile(`(?i)^(what|which)\b`)
	leadRE     = regexp.MustCompile(`(?i)^((please|so|and|ok|okay|also|then)[, ]+|according to [^,?]{1,40},\s*|(tell|give|show) (me|us)\b[ ,]*|(can|could) you (tell|give|show) (me|us)\b[ ,]*|do you know\b[ ,]*|i (want|would like) to know\b[ ,]*)+`)
)

// answerKind is the kind of answer question asks for, "" when it asks for
// nothing in particular (a statement, an imperative without a question
// word). Courtesy and imperative openers ("Please tell me when …") are
// skipped first.
func answerKind(question string) string {
	kind, _ := whPhrase(question)
	return kind
}

// whPhrase returns the kind of answer question asks for and the question
// without its opener and question phrase ("In what year was Lyon
// established?" → "when", "was Lyon established?"), which holds the
// subject and attribute asked about.
func whPhrase(question string) (kind, rest string) {
	q := strings.TrimSpace(question)
	if j := strings.Index(q, ": "); j > 0 && j < 30 && !strings.Contains(q[:j], " ") {
		q = q[j+2:] // a speaker's "Name: " before the question
	}
	q = leadRE.ReplaceAllString(q, "")
	for _, k := range []struct {
		re   *regexp.Regexp
		kind string
	}{{whenRE, kindWhen}, {whoRE, kindWho}, {whereRE, kindWhere}, {quantityRE, kindQuantity}, {whyRE, kindWhy}} {
		if m := k.re.FindString(q); m != "" {
			return k.kind, strings.TrimSpace(q[len(m):])
		}
	}
	switch {
	case feelQuestionRE.MatchString(q):
		return kindFeel, q
	case yesNoRE.MatchString(q) && strings.Contains(q, "?"):
		return kindYesNo, q
	case whatRE.MatchString(q):
		return kindWhat, strings.TrimSpace(q[len(whatRE.FindString(q)):])
	}
	return "", q
}
