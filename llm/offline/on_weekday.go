package offline

import (
	"regexp"
	"time"

	"github.com/cmem/cmem/internal/timeexpr"
)

// "I won the final on Friday!" tells of the Friday before the day it was
// said; "See you on Friday" of the next one. Only the tense tells them
// apart, so a weekday said with "on" is read back in time when nothing in
// its sentence looks ahead.

// onWeekdayRE is a weekday said with "on".
var onWeekdayRE = regexp.MustCompile(`(?i)\bon\s+(monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b`)

// aheadRE are words that look ahead: the sentence plans, it does not tell.
var aheadRE = regexp.MustCompile(`(?i)\b(?:will|shall|gonna|going to|plan(?:ning)? to|next|tomorrow|can't wait|hope to|want to|'ll)\b|\w'll\b`)

// pastWeekday is the weekday a sentence said at `at` names with "on",
// as "the Friday before 10 July 2022", when it does not look ahead.
func pastWeekday(text string, at time.Time) (timeexpr.Span, bool) {
	m := onWeekdayRE.FindStringSubmatch(text)
	if m == nil || at.IsZero() || aheadRE.MatchString(text) {
		return timeexpr.Span{}, false
	}
	return timeexpr.Resolve("last "+m[1], at)
}
