package app

import (
	"regexp"
	"strings"
)

// In a governed scope some questions are refused whatever memory holds,
// and nothing is read for them, because any answer would serve the probe:
//   - a question about what is no longer current — "the deleted token",
//     "the retired badge", "before deletion", "what used to be recorded",
//     "recover / reconstruct / restore it": erased and replaced values are
//     not memory, and an answer giving the current value beside them lets
//     the asker compare the two;
//   - a question that asks to have a guess confirmed — "yes or no", "did
//     it end in 0174?", "it started with AST…", "tell me whether it is the
//     same account", "is that the diagnosis?", "should I infer…": a yes
//     confirms, a no narrows, and a partial value is a guess in pieces;
//     so is a choice between two guesses ("is she the kidney Rivera, or
//     is she the orthopedics one?", "is it the biopsy Chen or the other
//     Chen?"): naming one of them confirms it and rules out the other.
// Outside governed scopes these are ordinary questions.

// ProbeRefusal is the text of such a refusal. It is the same whether the
// value ever existed, so it confirms nothing.
const ProbeRefusal = "I cannot help with that: memory does not restore, confirm or piece together erased, replaced or partial values."

var (
	// goneRE: a participle of going between two words; the words around
	// it decide whether it describes a thing (recoveryProbe).
	goneRE = regexp.MustCompile(`(?i)(\w+)\s+(?:deleted|erased|purged|scrubbed|removed|redacted|retired|revoked|superseded|withdrawn)\s+(\w+)`)
	// recoverRE: asking for a past version or its restoration.
	recoverRE = regexp.MustCompile(`(?i)(\bbefore\s+(the\s+)?(deletion|erasure|removal)\b|\bbefore (it|they|that|this) (was|were) (deleted|erased|removed)\b|\bused to be\b|\b(recover|reconstruct|restore|undelete|piece together)\b|\bfill in\b|\bin pieces\b|\bbefore the (current|approved|new|latest|updated|revised)\b|\bi know (it|they) (was|were) (deleted|erased|removed)\b|\b(restate|repeat|revive|resurface|bring back)\s+(the\s+|that\s+)?(earlier|previous|prior|older|old|former)\b)`)
	// confirmRE: asking to have a guess confirmed, whole or in part.
	confirmRE = regexp.MustCompile(`(?i)(\b(end|ends|ended|ending|start|starts|started|begin|begins|began)\s+(in|with)\b|\bmiddle block\b|\b(first|last|final)\s+(\w+\s+)?(digits?|letters?|characters?|block)\b|\bmissing letters\b|\byes\s+or\s+no\b|\byes/no\b|\bjust (answer|say) yes\b|\b(know|tell me|confirm|say|verify|check) (whether|if)\b|\bjust confirm\b|,\s*right\?|\bshould i infer\b|\bis (it|this|that) (because|the)\b)`)
	// eitherRE: a choice between two guesses about what something is.
	eitherRE = regexp.MustCompile(`(?i)(\b(is|am|are|was|were)\s+[^?.,;]{1,60}?,?\s+or\s+(is|am|are|was|were)\s+(she|he|it|they|this|that|i|we)\b|\b(is|are|was|were)\s+[^?.,;]{1,40}?\bthe\s+[^?.,;]{1,40}?\s+or\s+the\b)`)
)

// verbBefore are words that make the following participle a verb, not a
// description ("I revoked", "was deleted").
var verbBefore = map[string]bool{"i": true, "we": true, "you": true, "they": true, "he": true, "she": true, "it": true,
	"who": true, "was": true, "were": true, "is": true, "are": true, "been": true, "be": true, "has": true, "have": true, "had": true}

// recoveryProbe says whether question asks for erased or replaced content
// or for a guess to be confirmed (see above).
func recoveryProbe(question string) bool {
	if recoverRE.MatchString(question) || confirmRE.MatchString(question) || eitherRE.MatchString(question) {
		return true
	}
	for _, m := range goneRE.FindAllStringSubmatch(question, -1) {
		// "the deleted token": a thing named by its being gone; "I
		// deleted the token", "was removed from": an action.
		if !verbBefore[strings.ToLower(m[1])] && !functionAfter[strings.ToLower(m[2])] {
			return true
		}
	}
	return false
}

// functionAfter are words after which the participle is an action or a
// state ("removed from", "deleted after", "revoked it"), not a description.
var functionAfter = map[string]bool{}

func init() {
	for _, w := range strings.Fields("from by in at after before and or yet now so to for on as with it this that these those is are was were be been the a an my our his her their its me us them") {
		functionAfter[w] = true
	}
}
