package offline

import (
	"regexp"
	"slices"
	"strings"
)

// "What is the name of Maria's puppy?", "What are the names of John's
// children?" and "What are Melanie's pets' names?" ask for a name, as
// "who" does, though they open with "what": the answer is the name the
// sentence gives (not its speaker, who is rarely the one named), and
// asked "names", each name a turn gives.

var (
	// nameAskedRE is a what question about a name.
	nameAskedRE = regexp.MustCompile(`(?i)^(?:\w+:\s+)?what\s+(?:is|are|was|were|'s)\b.*\bnames?\b`)
	// namesAskedRE asks for several names.
	namesAskedRE = regexp.MustCompile(`(?i)\bnames\b`)
	// namingRE gives a name as a name: "his name is Kyle", "her name's
	// Coco", "a pup named Shadow", "a band called Summer Sounds".
	namingRE = regexp.MustCompile(`(?i:\bname\s+is|\bname's|\bnamed|\bcalled)\s+["“]?(\p{Lu}[\p{L}'-]*(?:\s+\p{Lu}[\p{L}'-]*)*)`)
)

// asksName reports whether question asks for a name with "what".
func asksName(question string) bool {
	return nameAskedRE.MatchString(question)
}

// asksNames reports whether question asks for several names.
func asksNames(question string) bool {
	return asksName(question) && namesAskedRE.MatchString(question)
}

// nameSpan is the name text gives nearest to what question asks about
// (nearestNewName); ok is false when it gives none the question does not
// hold.
func nameSpan(question, text string) (string, bool) {
	if m := namingRE.FindStringSubmatch(text); m != nil && !slices.Contains(namesOf(question), strings.ToLower(m[1])) {
		return m[1], true
	}
	n := nearestNewName(question, text)
	return n, n != ""
}

// hasName reports whether text gives a name question does not hold.
func hasName(question, text string) bool {
	_, ok := nameSpan(question, text)
	return ok
}
