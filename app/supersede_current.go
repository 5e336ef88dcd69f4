package app

import (
	"regexp"
	"strings"
)

// A turn that says what something is now, in words rather than a number
// ("the current family-release scope is meeting-time confirmation only",
// "the current blocker remains the district memo"), gives a new version of
// that thing as an update with a value does (supersede_turn.go): the
// earlier turns of the same or nested scopes that were wholly about it —
// every clause of theirs names it — are superseded, so a reader is
// shown the current wording, not a stale one beside it. Only a thing
// named after "current" counts: "current" is how a speaker marks the
// version in force; "the scope is …" alone may describe, not replace.

// currentRE finds "current <thing> is|are|remains|stays <something>".
var currentRE = regexp.MustCompile(`(?i)\bcurrent(?:ly)?\s+((?:[a-z][a-z-]*\s+){0,2}[a-z][a-z-]*)\s+(?:is|are|remains|stays)\s+(\S[^.;,]*)`)

// currentAttribute returns the words naming the thing sentence gives the
// current version of (less scope names and words of recency), or nil, and
// what the sentence says it is now.
func currentAttribute(sentence string, scopes []scopeInfo) ([]string, string) {
	m := currentRE.FindStringSubmatch(sentence)
	if m == nil {
		return nil, ""
	}
	var ws []string
	for _, w := range words(m[1]) {
		if attributeStop[w] || scopeWord(w, scopes) {
			continue
		}
		ws = append(ws, stem(w))
	}
	return ws, strings.TrimSpace(m[2])
}

// restates says whether text already says now: an earlier turn giving the
// same version ("the current label is bridge-82" after "the current
// coordination label … is bridge-82") is not replaced by a restatement,
// which may say less beside it.
func restates(text, now string) bool {
	return now != "" && strings.Contains(normalize(text), normalize(now))
}

// whollyNames says whether every clause of text names all of attr
// (stemmed): a recap that also gives other things ("target July 30;
// budget 216,000 USD; no blockers open") is never wholly about one of
// them, so it is never hidden by a new version of one.
func whollyNames(text string, attr []string) bool {
	if len(attr) == 0 {
		return false
	}
	return clausesHold(text, attr, func(c string) bool { return len(words(c)) > 0 })
}
