package app

import (
	"context"
	"regexp"
	"strings"

	"github.com/cmem/cmem/domain"
	"github.com/cmem/cmem/projectors/access"
	"github.com/cmem/cmem/vectors"
)

// A deletion request often names no value: "please delete the temporary
// safe numbers", "delete the Harbor House number and the alias from my
// record". Its target is resolved by content over what the speaker has
// authority over: the fragments of the scopes they steward that the
// request describes (at least two of its words, or its one word) are
// found, and the values they hold (identifier-like values, and names and
// quoted phrases the request's words are part of) become the targets — so every fragment
// restating them is erased, not only the one the request had in mind,
// and a later turn repeating them is redacted.

// nameRE is a run of two or more capitalised words: a place or a person.
var nameRE = regexp.MustCompile(`\b[A-Z][a-z]+(?:\s+[A-Z][a-z]+)+\b`)

// describeStop are the words of a deletion request that describe the
// request, not what it erases.
var describeStop = map[string]bool{
	"please": true, "delete": true, "remove": true, "erase": true, "forget": true, "purge": true, "scrub": true,
	"wipe": true, "from": true, "the": true, "and": true, "memory": true, "assistant": true, "shared": true,
	"record": true, "after": true, "done": true, "now": true, "also": true, "too": true, "with": true, "this": true,
	"that": true, "all": true, "any": true, "old": true, "earlier": true, "prior": true, "kindly": true, "note": true,
	"notes": true, "should": true, "treated": true, "deleted": true, "request": true, "deletion": true, "my": true,
	"your": true, "our": true, "chart": true, "file": true, "keep": true, "only": true, "want": true, "well": true,
}

// describedWords are the words of sentence that say what it erases.
func describedWords(sentence string) []string {
	var out []string
	for _, w := range words(sentence) {
		if !describeStop[w] {
			out = append(out, stem(w))
		}
	}
	return out
}

func stem(w string) string {
	w = strings.TrimSuffix(w, "s")
	if len(w) > 6 {
		w = w[:6]
	}
	return w
}

// describedTargets returns the values held by the fragments, in the scopes
// the speaker stewards among turnScopes and the speaker's own, that
// sentence describes.
func (a *App) describedTargets(ctx context.Context, by domain.Identity, sentence string, turnScopes []string, now access.Point) ([]string, error) {
	desc := describedWords(sentence)
	if len(desc) == 0 {
		return nil, nil
	}
	need := min(2, len(desc))
	stewarded := map[string]bool{}
	for _, s := range append(append([]string{}, turnScopes...), recordPrefix+by.ID) {
		if a.view.CanInvoke(by.ID, StewardAgent(s), now) {
			stewarded[s] = true
		}
	}
	if len(stewarded) == 0 {
		return nil, nil
	}
	var out []string
	err := a.everyFragment(ctx, func(f vectors.Fragment) {
		if !inScopes(f.Agents, stewarded) {
			return
		}
		for _, s := range sentences(f.Value) {
			if eraseRE.MatchString(s) {
				continue // another request, not the thing described
			}
			have := map[string]bool{}
			for _, w := range words(s) {
				have[stem(w)] = true
			}
			hit := 0
			for _, w := range desc {
				if have[w] {
					hit++
				}
			}
			if hit < need {
				continue
			}
			for _, v := range valueRE.FindAllString(s, -1) {
				if v = strings.Trim(v, ".,"); len(v) >= 4 && (!onlyDigits(v) || len(v) > 4) {
					out = append(out, v)
				}
			}
			for _, m := range proposedQuoteRE.FindAllStringSubmatch(s, -1) { // a possessive is no quote
				q := strings.TrimSpace(m[1] + m[2] + m[3] + m[4])
				for _, w := range words(q) {
					if contains(desc, stem(w)) { // the quoted thing the request describes
						out = append(out, q)
						break
					}
				}
			}
			for _, n := range nameRE.FindAllString(s, -1) {
				for _, w := range words(n) {
					if contains(desc, stem(w)) {
						out = append(out, n)
						break
					}
				}
			}
		}
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// inScopes says whether every scope agent of agents is one of scopes (and
// there is one): the fragment lies wholly inside what the speaker stewards.
func inScopes(agents []string, scopes map[string]bool) bool {
	n := 0
	for _, ag := range agents {
		s, ok := strings.CutPrefix(ag, scopePrefix)
		if !ok {
			continue
		}
		if !scopes[s] {
			return false
		}
		n++
	}
	return n > 0
}

// withoutScopeNames is targets less those holding a scope's own name.
func withoutScopeNames(targets []string, scopes []scopeInfo) []string {
	var out []string
	for _, t := range targets {
		named := false
		for _, sc := range scopes {
			if sc.name != nil && sc.name.MatchString(t) {
				named = true
				break
			}
		}
		if !named && !contains(out, t) {
			out = append(out, t)
		}
	}
	return out
}
