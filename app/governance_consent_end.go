package app

import (
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/cmem/cmem/internal/timeexpr"
)

// The end of a spoken delegation, resolved against the turn's time. "Through
// Friday" includes Friday: the grant ends when Friday does, unless a time
// of day is said ("through Friday 18:00"). A bare weekday looks forward —
// an end is never behind the statement that sets it — so it is the coming
// one (today's, if today has not ended). An end that cannot be resolved is
// reported, never guessed: the grant is then not made, since a delegation
// given an end must not become a standing one.

var (
	weekdayRE   = regexp.MustCompile(`(?i)^(monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b`)
	timeOfDayRE = regexp.MustCompile(`(?i)^[\s,]*(?:at\s+)?(?:(noon|midday|midnight)|(\d{1,2})(?::(\d{2}))?\s*(am|pm|a\.m\.|p\.m\.)?)`)
)

// resolveEnd returns the instant a delegation said to last "through phrase"
// ends, with the turn said at ref; ok is false when phrase names no day.
func resolveEnd(phrase string, ref time.Time) (time.Time, bool) {
	ref = ref.UTC()
	phrase = strings.TrimSpace(phrase)
	var day timeexpr.Span
	var rest string
	if spans := timeexpr.Find(phrase, ref); len(spans) > 0 && spans[0].Pos <= 4 && spans[0].Grain == timeexpr.Day {
		day, rest = spans[0], phrase[spans[0].Pos+len(spans[0].Text):]
	} else if m := weekdayRE.FindString(phrase); m != "" {
		this, ok := timeexpr.Resolve("this "+m, ref)
		if !ok {
			return time.Time{}, false
		}
		if !this.End.After(ref) {
			if this, ok = timeexpr.Resolve("next "+m, ref); !ok {
				return time.Time{}, false
			}
		}
		day, rest = this, phrase[len(m):]
		// "Friday, March 6": the date that follows says which Friday.
		if spans := timeexpr.Find(rest, ref); len(spans) > 0 && spans[0].Pos <= 3 && spans[0].Grain == timeexpr.Day {
			day, rest = spans[0], rest[spans[0].Pos+len(spans[0].Text):]
		}
	} else {
		return time.Time{}, false
	}
	if at, ok := timeOfDay(rest); ok {
		return day.Start.Add(at), true
	}
	return day.End, true
}

// timeOfDay reads a time of day at the start of s ("18:00", "6 pm",
// "noon") as the duration since midnight.
func timeOfDay(s string) (time.Duration, bool) {
	m := timeOfDayRE.FindStringSubmatch(s)
	if m == nil || m[0] == "" {
		return 0, false
	}
	switch strings.ToLower(m[1]) {
	case "noon", "midday":
		return 12 * time.Hour, true
	case "midnight":
		return 24 * time.Hour, true
	}
	if m[3] == "" && m[4] == "" {
		return 0, false // a bare number is a date's or a count's, not a time
	}
	h, _ := strconv.Atoi(m[2])
	mins, _ := strconv.Atoi(m[3])
	switch strings.ToLower(strings.ReplaceAll(m[4], ".", "")) {
	case "pm":
		if h < 12 {
			h += 12
		}
	case "am":
		if h == 12 {
			h = 0
		}
	}
	if h > 24 || mins > 59 || h == 24 && mins > 0 {
		return 0, false
	}
	return time.Duration(h)*time.Hour + time.Duration(mins)*time.Minute, true
}
