package offline

import "regexp"

// A speaker saying what they are doing or mean to do ("I'm scheduling
// the nurse follow-up and the glucose test", "I want to review when to go
// to the emergency department", "we still need clean prep instructions")
// speaks of the act, not of its outcome: the record of the booked visits
// or the instructions comes later. Such a clause, when it states no
// value, counts for less (as hedgeRE's do); one that names the value
// ("I can hold Monday March 9 at 11:00 AM") still states it.

// intentRE matches a clause that opens (or goes on after a comma) with
// the speaker's own present or intended act.
var intentRE = regexp.MustCompile(`(?i)(?:^|,\s*)(?:i|we)(?:'m|'re|’m|’re| am| are| will|'ll|’ll| want to| need to| still need| would like to| plan to| am going to)\s`)

// intendsOnly says whether clause text is a speaker's act without a value.
func intendsOnly(text string) bool {
	return intentRE.MatchString(text) && !digitRE.MatchString(text)
}
