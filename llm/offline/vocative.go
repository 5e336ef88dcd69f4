package offline

import (
	"regexp"
	"strings"
)

// A name said to address someone ("Caroline, those lessons are great",
// "Thanks, Mel!") does not make a sentence about them: in a chat it is
// the other speaker talking to them. A question that names someone is
// answered from sentences about that person (namedPool), so an asked
// name used only as an address does not count there.

// vocativeLead is what comes before a name said to address someone: the
// start of a sentence, a comma, or a greeting.
const vocativeLead = `(?i)(^|[.!?]\s+|,\s*|\b(?:hey|hi|hello|thanks|thank you|wow|oh|yeah|yes|congrats|aww|yay)\s*,?\s*)`

// withoutVocatives is sentence without the names (lower-case, as
// askedNames gives them) it uses to address someone: a name between such
// a lead and a comma, "!", "?" or ".". The speaker's label is kept.
func withoutVocatives(sentence string, names []string) string {
	who, body := speakerLabel(sentence)
	for _, n := range names {
		re := regexp.MustCompile(vocativeLead + strings.ReplaceAll(regexp.QuoteMeta(n), " ", `\s+`) + `\b(\s*[,!?.])`)
		body = re.ReplaceAllString(body, "$1$2")
	}
	if who != "" {
		return who + ": " + body
	}
	return body
}

// addressLead is what comes before a name said to address someone at the
// start of a sentence: the start itself or a greeting (not a comma, which
// also separates the names of a list).
const addressLead = `(?i)(?:^|[.!?]\s+|\b(?:hey|hi|hello|thanks|thank you|wow|oh|yeah|yes|congrats|aww|yay)\s*,?\s*)`

// addressedNames are the names of text (lower case) it uses only to
// address someone: after an addressLead and before a comma or "!".
func addressedNames(text string) map[string]bool {
	out := map[string]bool{}
	for _, n := range namesOf(text) {
		re := regexp.MustCompile(addressLead + strings.ReplaceAll(regexp.QuoteMeta(n), " ", `\s+`) + `\s*[,!]`)
		if re.MatchString(strings.ToLower(text)) {
			out[n] = true
		}
	}
	return out
}
