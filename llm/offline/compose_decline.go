package offline

import "regexp"

// A clause in which the speaker declines to tell ("I cannot share
// Elena's treatment details with you", "we can't discuss the reason for
// the visit") names what is asked for and states none of it: it is a
// reply to someone else's question, not a fact of the record, and it
// answers nothing (like a request, clause.asks).

// declineRE matches a speaker declining to share, discuss or confirm.
var declineRE = regexp.MustCompile(`(?i)\b(?:i|we)\s+(?:cannot|can't|can’t|can not|am not able to|are not able to|won't|won’t|will not|am unable to|are unable to)\s+(?:share|discuss|disclose|release|confirm|give|provide|tell|say|go into)\b`)

// declines says whether clause c declines to tell.
func declines(c string) bool { return declineRE.MatchString(c) }
