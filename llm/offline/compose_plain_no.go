package offline

import (
	"regexp"
	"strings"
)

// A state that is absent is said many ways: "Omar does not have a
// borrowing hold", "his parking restriction is now cleared", "the export
// block was lifted". A reader asking whether there is a hold wants the
// plain "no borrowing hold", and the composed answer gives it in that
// form: the same statement, in the words a reader checks for. Only
// obstacles (a hold, a block, a flag, a restriction) are cleared into
// "no": a cleared payment or a released report still exists.

// notHaveRE is "does not have a(n)/any": "has no".
var notHaveRE = regexp.MustCompile(`(?i)\b(does|do|did)\s+not\s+have\s+(?:an?|any)\s+|\b(doesn't|don't|didn't)\s+have\s+(?:an?|any)\s+`)

// notThereRE is "there is not a(n)/any": "there is no".
var notThereRE = regexp.MustCompile(`(?i)\bthere\s+(is|are|was|were)\s+not\s+(?:an?|any)\s+|\bthere\s+(isn't|aren't|wasn't|weren't)\s+(?:an?|any)\s+`)

// obstacleClearedRE is an obstacle said to be gone: the owner or article
// (dropped), up to two words naming the obstacle with its noun (group 1),
// then "(is|was|has been) (now) cleared/lifted/removed/resolved".
var obstacleClearedRE = regexp.MustCompile(`(?i)(?:\b(?:the|a|an|her|his|their|its|our|my|your|[A-Z][\w-]*'s)\s+)?\b((?:[\w-]+\s+){0,2}(?:hold|holds|block|blocks|blocker|blockers|flag|flags|restriction|restrictions|freeze|lock|bar|embargo))\s+(?:(?:is|are|was|were|has\s+been|have\s+been)\s+)?(?:now\s+|since\s+)?(?:cleared|lifted|removed|resolved|released)\b`)

// plainNo returns text with its absent states said as "no X".
func plainNo(text string) string {
	text = notHaveRE.ReplaceAllStringFunc(text, func(m string) string {
		switch strings.ToLower(strings.Fields(m)[0]) {
		case "did", "didn't":
			return "had no "
		case "do", "don't":
			return "have no "
		}
		return "has no "
	})
	text = notThereRE.ReplaceAllStringFunc(text, func(m string) string {
		verb := strings.ToLower(strings.Fields(m)[1])
		return "there " + strings.TrimSuffix(strings.TrimSuffix(verb, "n't"), "not") + " no "
	})
	return obstacleClearedRE.ReplaceAllStringFunc(text, func(m string) string {
		return "no " + obstacleClearedRE.FindStringSubmatch(m)[1]
	})
}
