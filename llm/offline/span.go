package offline

import (
	"regexp"
	"strings"
	"time"
	"unicode"

	"github.com/cmem/cmem/internal/timeexpr"
)

// Answers that answer: the offline provider gives the span of its best
// supporting sentence that answers the kind of question asked
// (answerKind), not the sentence or a paragraph:
//
//   - when: a date (whenSpan): a time expression resolved against the
//     fragment's observed_at, a written date, or the day it was observed;
//   - who: a name the question does not already hold, a speaker's label
//     ("Caroline:") last;
//   - what is the name (names) of …: the name given, after "name is",
//     "named" or "called" first, never the speaker's (nameSpan);
//   - where: the capitalised place after in/at/from/to/near, else a name
//     the question does not hold;
//   - how many / how much: a number with the unit word after it
//     ("31 seats", "41 million credits"); how often: a frequency as said
//     ("twice a day", "every weekend");
//   - how someone felt or described something: the word of feeling said
//     after a verb of being ("it was totally surreal"; feelSpan);
//   - yes/no: "Yes" or "No" (the sentence negates what the question
//     does not), alone: the sentence is the answer's support and cited
//     (on LoCoMo's conversations 0-4 the word alone scored better than
//     the word with the sentence);
//   - what, which, why and anything else: a title in quotes the
//     question does not hold, else the sentence itself, which is short
//     in memory written by cmem, less a comment after it (tighten).
//
// When the kind's span is not in the sentence, the sentence is the
// answer: a wrong span is worse than a long answer.

var (
	monthNames = `(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)`
	dateRE     = regexp.MustCompile(`(?i)\b(?:\d{1,2}(?:st|nd|rd|th)?\s+(?:of\s+)?` + monthNames + `\.?,?(?:\s+\d{4})?` +
		`|` + monthNames + `\.?\s+\d{1,2}(?:st|nd|rd|th)?(?:,?\s+\d{4})?` +
		`|` + monthNames + `\.?\s+\d{4}` +
		`|\d{4}-\d{2}-\d{2}` +
		`|(?:in\s+)?(?:the\s+)?(?:early|mid|late)?\s*\d{4}s?` +
		`|(?:yesterday|today|tonight|tomorrow|last\s+(?:night|week|weekend|month|year|summer|winter|spring|fall|autumn|friday|saturday|sunday|monday|tuesday|wednesday|thursday)` +
		`|next\s+(?:week|weekend|month|year)|this\s+(?:week|weekend|month|year|morning)|(?:a|one|two|three|four|five|six|few|couple\s+of)\s+(?:days?|weeks?|months?|years?)\s+ago))\b`)
	numberWords = `(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|forty|fifty|hundred|dozen|a few|several|couple)`
	quantityRE2 = regexp.MustCompile(`(?i)\b(?:\d+(?:[.,]\d+)*%?|` + numberWords + `)(?:\s+(?:million|billion|thousand|hundred|percent|per cent))?(?:\s+[a-z][a-z-]*)?`)
	placeRE     = regexp.MustCompile(`\b(?:in|at|from|to|near|visited|visit)\s+((?:the\s+)?[A-Z][\p{L}'-]*(?:\s+(?:of\s+)?[A-Z][\p{L}'-]*)*)`)
	// hypotheticalRE: a yes/no question about what someone would do or
	// likely is, which the conversation suggests but does not state.
	hypotheticalRE = regexp.MustCompile(`(?i)^(?:\w+:\s+)?(?:would|might|could)\b|\blikely\b|\bprobably\b`)
	negationRE     = regexp.MustCompile(`(?i)\b(not|no|never|n't|nothing|none|neither|nor)\b`)
	howOftenRE     = regexp.MustCompile(`(?i)\bhow often\b`)
	// frequencyRE is how often something happens, as said: "twice a
	// week", "multiple times a day", "every weekend", "daily".
	frequencyRE = regexp.MustCompile(`(?i)\b(?:(?:once|twice|thrice|(?:a\s+)?(?:few|couple(?:\s+of)?|several|multiple|many|\d+|one|two|three|four|five|six|seven|eight|nine|ten)\s+times)(?:\s+or\s+(?:once|twice|\w+\s+times))?\s+(?:a|an|per|each|every)\s+(?:day|week|month|year|weekend|season)|every\s+(?:other\s+)?(?:day|night|morning|evening|week|weekend|month|year|summer|winter|\w+day)|(?:daily|weekly|monthly|yearly|annually|nightly)|(?:most|all)\s+(?:days|weekends|nights|mornings))\b`)
)

// speakerLabel splits a "Name: text" turn into the speaker and the text;
// speaker is "" when the sentence has no label.
func speakerLabel(s string) (speaker, text string) {
	if m := datedLabelRE.FindStringSubmatchIndex(s); m != nil {
		return s[m[2]:m[3]], strings.TrimSpace(s[m[1]:])
	}
	if i := strings.Index(s, ": "); i > 0 && i < 40 {
		head := s[:i]
		if capitalised(head) && !strings.ContainsAny(head, ".?!") && len(strings.Fields(head)) <= 3 {
			return head, strings.TrimSpace(s[i+2:])
		}
	}
	return "", s
}

// datedLabelRE is a chat log's turn label with the time it was said in
// brackets: "Caroline (1:56 pm on 8 May, 2023): …". The time is the
// fragment's observed_at already; in the text it would be taken for the
// answer to every "when".
var datedLabelRE = regexp.MustCompile(`^(\p{Lu}[\p{L}'.-]*(?:\s+\p{Lu}[\p{L}'.-]*){0,2})\s*\([^()]{1,60}\):\s+`)

// typedKinds are the kinds whose answer is a span of its own kind.
var typedKinds = map[string]bool{kindWhen: true, kindWho: true, kindWhere: true, kindQuantity: true, kindFeel: true}

// span returns the part of sentence that answers question (see above).
func span(question, sentence string, at time.Time) string {
	kind := answerKind(question)
	_, text := speakerLabel(sentence)
	if s, ok := typedSpan(kind, question, sentence, at); ok {
		return s
	}
	if kind == kindYesNo {
		no := negationRE.MatchString(text) && !negationRE.MatchString(question)
		if hypotheticalRE.MatchString(question) {
			// A guess from what was said, not a fact stated: the
			// supporting sentence is the answer's Support.
			return map[bool]string{true: "Likely no", false: "Likely yes"}[no]
		}
		if no {
			return "No"
		}
		return "Yes"
	}
	return tighten(question, dropOpener(text))
}

// typedSpan is the span of kind in sentence (when, who, where, quantity);
// ok is false when the sentence holds none, or for another kind.
func typedSpan(kind, question, sentence string, at time.Time) (string, bool) {
	speaker, text := speakerLabel(sentence)
	if kind == kindWhat && asksName(question) {
		return nameSpan(question, text)
	}
	switch kind {
	case kindWhen:
		if howLongAgoRE.MatchString(question) {
			if m := agoRE.FindString(text); m != "" {
				return m, true // asked how long ago, the span as said
			}
		}
		return whenSpan(text, at)
	case kindWho:
		if n := nearestNewName(question, text); n != "" {
			return n, true
		}
		if speaker != "" && !strings.Contains(strings.ToLower(question), strings.ToLower(speaker)) {
			return speaker, true
		}
	case kindWhere:
		asked := strings.ToLower(question)
		for _, m := range placeRE.FindAllStringSubmatch(text, -1) {
			if p := strings.TrimPrefix(m[1], "the "); !strings.Contains(asked, strings.ToLower(p)) {
				return p, true
			}
		}
		if n := newName(question, text); n != "" {
			return n, true
		}
	case kindFeel:
		return feelSpan(question, text)
	case kindQuantity:
		if howOftenRE.MatchString(question) {
			if m := frequencyRE.FindString(text); m != "" {
				return m, true // asked how often, a frequency as said
			}
		}
		for _, m := range quantityRE2.FindAllString(text, -1) {
			m = strings.TrimSpace(m)
			if !strings.Contains(strings.ToLower(question), strings.ToLower(m)) {
				return withoutCountedNoun(question, trimUnit(m)), true
			}
		}
	}
	return "", false
}

// whenSpan is the date a sentence observed at `at` (zero: unknown) gives:
// its first time expression resolved against `at` (internal/timeexpr) —
// a day as "7 May 2023", a longer relative span as said from that day
// ("the week before 9 June 2023") — else a date written in it (dateRE),
// else the day it was observed, which is when what it tells happened as
// far as the text says.
func whenSpan(text string, at time.Time) (string, bool) {
	if !at.IsZero() {
		if spans := timeexpr.Find(text, at); len(spans) > 0 {
			s := spans[0]
			if s.Relative != "" && (s.Grain == timeexpr.Week || weekdayRelative(s.Relative) || weekendRelative(s.Relative)) {
				// "the week before 9 June 2023"; and "last Friday" is
				// said as "the Friday before 15 July 2023": whether the
				// speaker meant the latest Friday or last week's is not
				// known, and the date it was said is. "Last weekend" is
				// "the weekend before 17 July 2023" for the same reason
				// (said on a Sunday, it may be that very weekend).
				return s.Relative, true
			}
			return s.Label(), true
		}
	}
	if m := strings.TrimSpace(dateRE.FindString(text)); m != "" {
		return m, true
	}
	if s, ok := pastWeekday(text, at); ok {
		return s.Relative, true // "on Friday", told after it (on_weekday.go)
	}
	if !at.IsZero() {
		return at.UTC().Format("2 January 2006"), true
	}
	return "", false
}

// trimUnit drops a last word that is not a unit (a stop word or verb
// picked up after the number).
func trimUnit(m string) string {
	f := strings.Fields(m)
	if len(f) > 1 {
		last := strings.ToLower(f[len(f)-1])
		if notNames[last] || len(last) < 2 || !unicode.IsLetter(rune(last[0])) {
			return strings.Join(f[:len(f)-1], " ")
		}
	}
	return m
}

// newName is the first name of text that question does not hold and
// that text does not use to address someone ("Wow John, …"), one said
// inside a sentence first: a capitalised word that opens a sentence
// ("Everyone", "Never", "Books") is more often not a name than one
// capitalised in the middle of it.
func newName(question, text string) string {
	asked := nameSet(question)
	addressed := addressedNames(text)
	ws := words(text)
	opening := ""
	for _, n := range namesOf(text) {
		if asked[n] || addressed[n] || isFirstPerson(strings.Fields(n)[0]) || calendarWords[strings.Fields(n)[0]] {
			continue // a day or month says when, not who or where
		}
		// Give the name as written.
		parts := strings.Fields(n)
		for i := range ws {
			if ws[i].lower == parts[0] && i+len(parts) <= len(ws) {
				var out []string
				for _, w := range ws[i : i+len(parts)] {
					out = append(out, w.text)
				}
				if !ws[i].initial {
					return strings.Join(out, " ")
				}
				if opening == "" {
					opening = strings.Join(out, " ")
				}
				break
			}
		}
	}
	return opening
}

// weekendRelative reports whether rel names a weekend relative to a day
// ("the weekend before 17 July 2023", "the weekend of 24 June 2022", "two
// weekends before 17 July 2023").
func weekendRelative(rel string) bool {
	f := strings.Fields(strings.ToLower(rel))
	return len(f) > 2 && (f[1] == "weekend" || f[1] == "weekends")
}

// weekdayRelative reports whether rel names a weekday relative to a day
// ("the Friday before 15 July 2023").
func weekdayRelative(rel string) bool {
	f := strings.Fields(rel)
	return len(f) > 1 && calendarWords[strings.ToLower(f[1])] && strings.HasSuffix(strings.ToLower(f[1]), "day")
}
