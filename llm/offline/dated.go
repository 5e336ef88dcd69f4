package offline

import (
	"strings"
	"time"

	"github.com/cmem/cmem/internal/timeexpr"
)

// "What instrument is Tim learning in December 2023?" and "What did Nate
// make for his friend on 25 February, 2022?" name when the thing asked
// was said or happened. A conversation's turns each carry the day they
// were said (observed_at): a turn said in that time, or shortly after it
// (a turn tells what happened "last week"), is far likelier to answer
// than a better-worded one from months away.

// datedSlack is how long after the asked time a turn may still tell of
// it ("last week", "the other day").
const datedSlack = 14 * 24 * time.Hour

// undatedWeight scales the score of a sentence observed outside the time
// a question names.
const undatedWeight = 0.6

// askedTimes are the absolute times (a day, a month, a year) question
// names, read against ref for a date without a year; none when it names
// none or only relative ones ("last week" in a question has no anchor).
func askedTimes(question string, ref time.Time) []timeexpr.Span {
	var out []timeexpr.Span
	for _, s := range timeexpr.Find(question, ref) {
		if (s.Relative == "" || anchoredOnDate(s)) && !s.End.IsZero() {
			out = append(out, s)
		}
	}
	return out
}

// anchoredOnDate reports whether a relative span is said against a date
// written in it ("the week before August 3, 2023"), not against the day
// it is read on ("last week"): such a span names an absolute time too.
func anchoredOnDate(s timeexpr.Span) bool {
	return strings.ContainsAny(s.Text, "0123456789")
}

// byAskedTime scales down the score of every sentence of ranked observed
// outside every time question names (with datedSlack after each), when
// at least one sentence was observed inside one: the question's time
// selects among turns, as its names do. Sentences with no observed time
// (a tool's) are left as they are.
func byAskedTime(question string, ranked []rankedSentence) {
	var ref time.Time
	for _, c := range ranked {
		if c.at.After(ref) {
			ref = c.at
		}
	}
	if ref.IsZero() {
		return
	}
	spans := askedTimes(question, ref)
	if len(spans) == 0 {
		return
	}
	inside := func(at time.Time) bool {
		for _, s := range spans {
			if !at.Before(s.Start.Add(-24*time.Hour)) && at.Before(s.End.Add(datedSlack)) {
				return true
			}
		}
		return false
	}
	any := false
	for _, c := range ranked {
		if !c.at.IsZero() && inside(c.at) {
			any = true
			break
		}
	}
	if !any {
		return
	}
	for i, c := range ranked {
		if !c.at.IsZero() && !inside(c.at) {
			ranked[i].score *= undatedWeight
		}
	}
}

// grainWords name a unit of time a question asks in ("Which month …").
var grainWords = map[string]bool{"month": true, "year": true, "day": true, "week": true, "date": true, "time": true, "season": true}

// saysMoreThanWhen reports whether text holds a content word other than
// one of time (a month, "week", "last"): "Which month was John in
// Italy?" less its names says only when, and is aligned whole, names and
// all, or no sentence would align with it.
func saysMoreThanWhen(text string) bool {
	for _, w := range contentWords(text) {
		if !calendarWords[w] && !timeWords[w] && !grainWords[w] {
			return true
		}
	}
	return false
}
