package app

import (
	"strings"
)

// An answer never restates a value its question proposes. "Was the old
// code ks_…?", "the current label is X — which one did it replace?": the
// asker already holds the value, restating it adds nothing, and repeating
// it back (or a sentence holding it) would confirm a guess — the way
// erased or unreadable values are probed. The proposed values are the
// question's identifier-like values (tokens, codes, phone numbers,
// amounts) and its quoted text; a sentence holding one is dropped from the
// answer and from each step's response.

// proposed returns the values question proposes.
func proposed(question string) []string {
	return erasureTargets(question, nil)
}

// withoutProposed drops the sentences of text that hold one of values.
func withoutProposed(text string, values []string) string {
	if len(values) == 0 {
		return text
	}
	var kept []string
	for _, sent := range sentenceRE.FindAllString(text, -1) {
		if holdsAny(sent, values) {
			continue
		}
		if s := strings.TrimSpace(sent); s != "" {
			kept = append(kept, s)
		}
	}
	return strings.Join(kept, " ")
}

// holdsAny says whether text holds one of values, case and spacing aside.
func holdsAny(text string, values []string) bool {
	n := normalize(text)
	for _, v := range values {
		if v = normalize(v); v != "" && strings.Contains(n, v) {
			return true
		}
	}
	return false
}
