package app

import (
	"regexp"
	"strings"

	"github.com/cmem/cmem/domain"
)

// An answer never restates a value its question proposes. "Was the old
// code ks_…?", "the current label is X — which one did it replace?": the
// asker already holds the value, restating it adds nothing, and repeating
// it back (or a sentence holding it) would confirm a guess — the way
// erased or unreadable values are probed. The proposed values are the
// question's identifier-like values (tokens, codes, phone numbers,
// amounts) and its quoted text; a sentence holding one is dropped from the
// answer and from each step's response.

// governed says whether agent reads a governed scope (scope-<id>, its
// -summary or -steward variant, docs/grants.md): the probing rules below
// hold there. Elsewhere a question's names say what it is about ("the
// revenue of Lumen Cooperative"), and hiding what holds them would hide the
// answer.
func governed(agent string) bool { return strings.HasPrefix(agent, scopePrefix) }

// governedAnswer says whether any step of ans was a governed scope's.
func governedAnswer(ans QueryAnswer) bool {
	for _, st := range ans.Steps {
		if governed(st.Agent) {
			return true
		}
	}
	return false
}

// nothingFoundRE is a provider's nothing-found sentence that quotes the
// question back ('No information about "…" was found …'): it holds no
// memory, only the asker's words, and so is no part of an answer.
var nothingFoundRE = regexp.MustCompile(`(?i)\bno information about\s+"[^"]*"[^.]*\.?`)

// withoutNothingFound drops those sentences from text.
func withoutNothingFound(text string) string {
	return strings.TrimSpace(nothingFoundRE.ReplaceAllString(text, ""))
}

// proposedQuoteRE is quoted text in a question; a single quote counts only
// at a word's edge, so a possessive ("Panel's … Partners'") is no quote.
var proposedQuoteRE = regexp.MustCompile(`(?:^|[\s(])'([^']{3,120})'(?:[\s.,;:?!)]|$)|"([^"]{3,120})"|‘([^’]{3,120})’|“([^”]{3,120})”`)

// proposed returns the values question proposes: its identifier-like
// values and its quoted text.
func proposed(question string) []string {
	var out []string
	for _, m := range proposedQuoteRE.FindAllStringSubmatch(question, -1) {
		if q := strings.TrimSpace(m[1] + m[2] + m[3] + m[4]); len(q) >= 3 {
			out = append(out, q)
		}
	}
	for _, v := range valueRE.FindAllString(question, -1) {
		v = strings.Trim(v, ".,")
		if len(v) >= 4 && (!onlyDigits(v) || len(v) > 4) {
			out = append(out, v)
		}
	}
	return out
}

// proposedIn is proposed(question) and the names it proposes ("Was the
// deleted site Maple House?"): runs of capitalised words holding no
// scope's own name — a scope's name says what the question is about, not
// what it guesses.
func proposedIn(question string, scopes []scopeInfo) []string {
	out := proposed(question)
	for _, n := range nameRE.FindAllString(question, -1) {
		named := false
		for _, sc := range scopes {
			if sc.name != nil && sc.name.MatchString(n) {
				named = true
				break
			}
		}
		if !named {
			out = append(out, n)
		}
	}
	return out
}

// unproposed is the fragments of fs that hold no value question proposes:
// the model is not shown what would only confirm the asker's guess. A
// recovery or confirmation probe, or a pressed demand for exact values, is
// shown nothing.
func unproposed(fs []domain.Fragment, question string, scopes []scopeInfo) []domain.Fragment {
	if fixedRefusal(question) != "" { // asks for what is gone, to confirm a guess, or presses for exact values: nothing is shown (outcome_recover.go, outcome_pressed.go)
		return fs[:0:0]
	}
	vals := proposedIn(question, scopes)
	if len(vals) == 0 {
		return fs
	}
	out := fs[:0:0]
	for _, f := range fs {
		if !holdsAny(f.Key+" "+f.Value, vals) {
			out = append(out, f)
		}
	}
	return out
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
