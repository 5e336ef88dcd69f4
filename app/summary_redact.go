package app

import (
	"regexp"
	"strings"
)

// A scope's redacted summary: what a principal with read level `summary`
// reads of it. It is the scope's logistics with its restricted details
// taken out: a sentence in one of the sensitivity classes (credentials,
// door codes, health details, compensation and HR, legal, grades,
// incidents, a home's absence, contact details), marked restricted ("confidential", "do not share") or about
// the scope's substance is dropped whole — a class word names the topic,
// the value it introduces can sit anywhere in the sentence — and so is one
// that places nothing in time. In what is left every identifying value (an
// amount, a percentage, a code or token, a number that is not part of a
// date or time, an e-mail, a link) and every name becomes RedactedMark.
// Dates and times stay: they are what a summary reader (a scheduler, a
// guest, a contractor) needs. Being offline and rule-based, it errs on
// the side of dropping: an over-refusal costs utility, a leak cannot be
// taken back.

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
// classes of the sentences it dropped; "" when nothing is left. A summary
// is what a scheduling-only delegate, a guest or a contractor may know: a
// sentence is kept only when it places something in time (a date, a
// weekday, a time of day) and carries none of the restricted classes;
// everything else — the scope's substance — is dropped whole. In what is
// kept, identifying values and names (capitalised words other than
// months, weekdays and keep, the words that name the summarised scopes;
// the speaker's names when they open a sentence) become RedactedMark.
func redactSummary(text string, keep map[string]bool, names []userName) (string, []string) {
	var kept []string
	dropped := map[string]bool{}
	for _, s := range summarySentenceRE.FindAllString(text, -1) {
		s = strings.TrimSpace(s)
		if s == "" {
			continue
		}
		cls := Sensitivity(s)
		switch {
		case restrictedRE.MatchString(s):
			cls = append(cls, "restricted")
		case summaryDropRE.MatchString(s):
			cls = append(cls, "substance")
		case !timeAnchorRE.MatchString(s):
			cls = append(cls, "not_logistics")
		}
		if len(cls) > 0 {
			for _, c := range cls {
				dropped[c] = true
			}
			continue
		}
		kept = append(kept, redactNames(redactValues(s), keep, names))
	}
	classes := make([]string, 0, len(dropped))
	for c := range dropped {
		classes = append(classes, c)
	}
	return strings.Join(kept, " "), sortedStrings(classes)
}

// timeAnchorRE finds what places a sentence in time: a month or weekday,
// a time of day, today/tomorrow/tonight, a week.
var timeAnchorRE = regexp.MustCompile(`(?i)\b(january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec|monday|tuesday|wednesday|thursday|friday|saturday|sunday|today|tomorrow|tonight|this (morning|afternoon|evening|week)|next week|[0-2]?\d:[0-5]\d|[01]?\d\s?(am|pm|a\.m\.|p\.m\.))\b`)

// summaryDropRE is substance a summary never holds, beyond the sensitivity
// classes: what was erased or is to be, aliases and contact routes,
// places and rooms, money, wording, clinical care and medication.
var summaryDropRE = regexp.MustCompile(`(?i)(\[erased\]|\b(delet\w*|remov\w*|eras\w*|clean-?up|purg\w*|forget|alias\w*|nickname|code|suite|room|ext|extension|line|number|voicemail|callback|address|wording|phrase|amount|budget|cost|price|pricing|discount|cap|stipend|funding|customer|client|vendor|contract\w*|release|petition|case|incident|root cause|clinical|clinic\w*|diagnos\w*|symptom\w*|pain|bleed\w*|clot|embolism|potassium|seizure|infect\w*|screen\w*|scan|biopsy|medicat\w*|medicine\w*|dose\w*|mg|tablet\w*|pill\w*|daily|twice|taking|take|stop|treat\w*|therapy|counsel\w*|psych\w*|pregnan\w*|ultrasound|results?|labs?|chart|notes?|record|private|sensitive)\b)`)

// summaryNameRE finds a capitalised word (a name, a place, an organisation).
var summaryNameRE = regexp.MustCompile(`\b[A-Z][a-z]+(?:['’]s)?\b`)

// redactNames replaces the names of s: every capitalised word after the
// first, and the first when it is a registered user's name, followed by
// another capitalised word or by a comma (someone addressed); months, weekdays and keep (lower-case words)
// stay.
func redactNames(s string, keep map[string]bool, names []userName) string {
	locs := summaryNameRE.FindAllStringIndex(s, -1)
	var b strings.Builder
	last := 0
	for i, l := range locs {
		w := s[l[0]:l[1]]
		base := strings.TrimSuffix(strings.TrimSuffix(w, "'s"), "’s")
		if base == "I" || calendarWords[strings.ToLower(base)] || keep[strings.ToLower(base)] { // days and months (governance_erase.go)
			continue
		}
		if l[0] == strings.IndexFunc(s, func(r rune) bool { return r != ' ' }) { // the sentence's first word
			next := i+1 < len(locs) && strings.TrimSpace(s[l[1]:locs[i+1][0]]) == ""
			vocative := strings.HasPrefix(s[l[1]:], ",") && !openerRE.MatchString(base) // "Marcus, the schedule…": someone addressed
			if !next && !vocative && !isUserName(base, names) {
				continue
			}
		}
		b.WriteString(s[last:l[0]])
		b.WriteString(RedactedMark)
		last = l[1]
	}
	b.WriteString(s[last:])
	return b.String()
}

// openerRE is a word that opens a sentence before a comma without naming
// anyone ("Yes, …", "Tomorrow, …").
var openerRE = regexp.MustCompile(`^(Yes|No|Also|However|Today|Tomorrow|Tonight|Yesterday|Then|Now|Okay|Ok|Thanks|Sure|Again|Otherwise|Meanwhile|Instead|Still|So|Well|Update|Note|Reminder|Correction|Separately|Finally|First|Second|Next|Later|Currently|Actually|Overall|Unfortunately|Good|Great|Fine|Right|Understood|Noted|Confirmed|Hi|Hello|Agreed|Perfect|Otherwise|Again|Besides|Anyway)$`)

func isUserName(w string, names []userName) bool {
	for _, u := range names {
		if u.name.MatchString(w) {
			return true
		}
	}
	return false
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
