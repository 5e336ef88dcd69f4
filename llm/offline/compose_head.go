package offline

import (
	"regexp"
	"strings"
)

// "What is the current diagnosis for the Monsoon incident" asks for a
// diagnosis; "for the Monsoon incident" only says which one. A clause
// holding the words after the preposition ("budget … after the incident
// response adjustments") is about something else that shares them, so
// they weigh less in a part's score than the asked thing itself.

// modifierRE finds where a part's modifier starts: a preposition after
// at least one word.
var modifierRE = regexp.MustCompile(`(?i)\S\s+(?:for|of|on|in|at|about|regarding|to|from|after|before|during)\s`)

// modifierWeight is the share of its weight a modifier's word keeps.
const modifierWeight = 0.5

// modifierWords returns the words of the segment's modifier (composeWords
// of the text after its first preposition), less those the head holds
// too.
func modifierWords(segment string) map[string]bool {
	out := map[string]bool{}
	loc := modifierRE.FindStringIndex(segment)
	if loc == nil {
		return out
	}
	head := map[string]bool{}
	for _, w := range composeWords(segment[:loc[0]+1]) {
		head[w] = true
	}
	for _, w := range composeWords(strings.TrimSpace(segment[loc[0]+1:])) {
		if !head[w] {
			out[w] = true
		}
	}
	return out
}
