package app

import (
	"regexp"
	"strings"
)

// A scope's redacted summary: what a principal with read level `summary`
// reads of it. It is the scope's conversation with its restricted details
// taken out: a sentence in one of the sensitivity classes (credentials,
// door codes, health details, compensation and HR, legal, grades, contact
// details) is dropped whole — a class word names the topic, the value it
// introduces can sit anywhere in the sentence — and in what is left every
// identifying value (an amount, a percentage, a code or token, a number
// that is not part of a date or time, an e-mail, a link) becomes
// RedactedMark. Dates, times and names stay: they are what a summary
// reader (a scheduler, a guest, a contractor) needs. Restricted wording
// ("confidential", "do not share") drops its sentence too.

// RedactedMark replaces an identifying value in a summary.
const RedactedMark = "[redacted]"

// restrictedRE marks a sentence its speaker restricted.
var restrictedRE = regexp.MustCompile(`(?i)\b(confidential|privileged|private|restricted|secret|do not (share|forward|circulate|recirculate|disclose|repeat|tell)|don't (share|tell)|need[- ]to[- ]know|not for (wider|general|external) (release|circulation|sharing)|internal only|off the record)\b`)

// summaryValueRE finds a candidate identifying value: an e-mail, a link, or a
// token holding a digit (with the currency, unit or code characters
// around it).
var summaryValueRE = regexp.MustCompile(`(?i)([\w.+-]+@[\w-]+\.[\w.-]+|https?://\S+|[$€£¥]?[\w$€£¥%.,/:+#-]*\d[\w%.,/:+#-]*(\s?(usd|eur|gbp|k|m|million|thousand|percent|%))?)`)

// dateLikeRE is a value a summary keeps: a year, a day of the month, a
// time of day, an ordinal, a small count.
var dateLikeRE = regexp.MustCompile(`(?i)^((19|20)\d\d|[0-3]?\d(st|nd|rd|th)?|[0-2]?\d:[0-5]\d(\s?(am|pm))?|[01]?\d\s?(am|pm)|[0-3]?\d[-–][0-3]?\d)[.,;:)]?$`)

// summarySentenceRE splits at a sentence end followed by a space, so that
// a value with a dot inside ("ops@example.com", "1.2M") stays whole.
var summarySentenceRE = regexp.MustCompile(`(?s)\S.*?(?:[.!?]+["'”’)]*(?:\s+|$)|$)`)

// moneyRE is an amount, whatever its size.
var moneyRE = regexp.MustCompile(`(?i)[$€£¥%]|\b(usd|eur|gbp|percent|million|thousand)\b`)

// redactSummary returns text's summary for summary readers and the
// sensitivity classes of the sentences it dropped; "" when nothing is
// left.
func redactSummary(text string) (string, []string) {
	var kept []string
	dropped := map[string]bool{}
	for _, s := range summarySentenceRE.FindAllString(text, -1) {
		s = strings.TrimSpace(s)
		if s == "" {
			continue
		}
		if cls := Sensitivity(s); len(cls) > 0 {
			for _, c := range cls {
				dropped[c] = true
			}
			continue
		}
		if restrictedRE.MatchString(s) {
			dropped["restricted"] = true
			continue
		}
		kept = append(kept, redactValues(s))
	}
	classes := make([]string, 0, len(dropped))
	for c := range dropped {
		classes = append(classes, c)
	}
	return strings.Join(kept, " "), sortedStrings(classes)
}

// redactValues replaces the identifying values of s with RedactedMark.
func redactValues(s string) string {
	return summaryValueRE.ReplaceAllStringFunc(s, func(v string) string {
		core := strings.TrimRight(v, ".,;:")
		if !moneyRE.MatchString(core) && dateLikeRE.MatchString(core) {
			return v
		}
		return RedactedMark + v[len(core):]
	})
}

func sortedStrings(xs []string) []string {
	for i := 1; i < len(xs); i++ {
		for j := i; j > 0 && xs[j] < xs[j-1]; j-- {
			xs[j], xs[j-1] = xs[j-1], xs[j]
		}
	}
	return xs
}
