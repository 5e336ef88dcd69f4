package offline

import (
	"regexp"
	"strings"
)

// "Medicine plan is unchanged after the CT move", "the callback plan
// stays the same": a clause that only says a thing did not change names
// the thing and states none of its value. Like a clause that only echoes
// the question (echoes), it answers nothing itself and points back to the
// statement before it, if any.

// unchangedRE matches a clause saying its subject did not change.
var unchangedRE = regexp.MustCompile(`(?i)\b(?:(?:is|are|remains?|stays?|was|were)\s+(?:still\s+)?(?:unchanged|the same|as before|as is)|no changes?\s+(?:to|in|for)|(?:has|have|had)\s+not\s+changed|hasn't changed|haven't changed|did not change|didn't change)\b`)

// saysUnchanged says whether c only says its subject did not change: it
// matches unchangedRE, states no value and ends its sentence ("Legal
// position is unchanged: fixed twelve-month term …" goes on to state it).
func saysUnchanged(c clause) bool {
	loc := unchangedRE.FindStringIndex(c.text)
	return loc != nil && !c.value && !strings.Contains(c.text[loc[1]:], ":") && len(composeWords(c.sentence)) <= len(c.words)
}
