package app

import (
	"regexp"
	"strings"
)

// A confirmation often names the value it keeps beside the one it erases:
// "2,760 USD is removed from retained memory; 2,730 USD remains current",
// "retired badge SOL-9206 has been deleted, and only SOL-9214 remains
// active", "delete 'conditional pass' and keep only the broad wording
// 'committee review'". The sentence asks for an erasure, but the kept value is the
// record's current one: erasing it too would lose exactly what the
// speaker said to keep. So a value said only in a clause that erases
// nothing and says the value stays current or active is no target; a
// value said in an erasing clause is one, wherever else it appears.

var (
	// clauseSplitRE splits a sentence into clauses.
	clauseSplitRE = regexp.MustCompile(`;\s*|,\s+(?:and|while|but)\s+|\s+(?:while|but)\s+|\s*—\s*`)
	// eraseVerbRE is a clause that erases something.
	eraseVerbRE = regexp.MustCompile(`(?i)\b(delete|deleted|deleting|remove|removed|removing|erase|erased|erasing|forget|forgotten|purge|purged|scrub|scrubbed|wipe|wiped|retire|retired|drop|dropped)\b`)
	// keptRE is a clause that says its value stays current.
	keptRE = regexp.MustCompile(`(?i)\b(remains?|stays?|is still|is now|becomes?|continues? as)\b[^;]*\b(current|active|in effect|in force|valid)\b|\b(current|active)\b[^;]*\b(remains?|stays?|is still|is now)\b|\b(keep|keeping|retain|retaining)\b`)
	// andKeepRE joins an erasing clause to one that keeps ("delete 'X'
	// and keep only the broad wording 'Y'"): the two are cut apart there.
	andKeepRE = regexp.MustCompile(`(?i),?\s+and\s+(keep|retain)\b`)
)

// withoutKept returns targets less the values sentence keeps.
func withoutKept(sentence string, targets []string) []string {
	clauses := clauseSplitRE.Split(andKeepRE.ReplaceAllString(sentence, "; $1"), -1)
	if len(clauses) < 2 {
		return targets
	}
	var out []string
	for _, t := range targets {
		erased, kept := false, false
		for _, c := range clauses {
			if !strings.Contains(strings.ToLower(c), strings.ToLower(t)) {
				continue
			}
			if eraseVerbRE.MatchString(c) || !keptRE.MatchString(c) {
				erased = true
			} else {
				kept = true
			}
		}
		if kept && !erased {
			continue
		}
		out = append(out, t)
	}
	return out
}
