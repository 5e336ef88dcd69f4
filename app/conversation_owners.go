package app

import (
	"context"
	"regexp"
	"strings"

	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/vectors"
)

// A distinctive value belongs to the scope it was first said in (by a
// turn that went to that one scope). A turn
// that restates one — a private amount quoted in a public program's
// thread ("the public line is 3,345 USD, close to Liam's private 3,330
// USD"), a room said "only to keep the two threads apart", another
// project's customer name — goes to that scope too, so only readers of
// both read it (the narrower reading). Distinctive values are tokens and
// codes (letters and digits), amounts with their currency, phone numbers
// and names ending in a number ("Juniper Annex Suite 731"); plain numbers,
// dates and times are said everywhere and own nothing. This holds for a
// turn said into the speaker's own record too, even one no one else
// reads: a value the speaker may not read where it belongs (a delegate
// repeating a case's private room) would otherwise come back to them
// from their own record, with a provenance that no longer says where it
// came from.

var (
	// amountRE is an amount with its currency.
	amountRE = regexp.MustCompile(`\b\d[\d,.]*\s?(USD|EUR|GBP)\b|[$€£]\s?\d[\d,.]*\d`)
	// phoneRE is a phone number.
	phoneRE = regexp.MustCompile(`\b\d{3}[-. ]\d{3}[-. ]\d{4}\b`)
	// codeRE is a token or code: letters and digits in one word.
	codeRE = regexp.MustCompile(`\b[A-Za-z][A-Za-z0-9]*[-_][A-Za-z0-9_-]*\d[A-Za-z0-9_-]*\b|\b[A-Za-z]+\d[A-Za-z0-9]*\b`)
	// numberedNameRE is a name ending in a number ("Commons Hall 329").
	numberedNameRE = regexp.MustCompile(`\b[A-Z][a-z]+(?:\s+[A-Z][a-z]+)+\s+\d+[A-Z]?\b`)
)

// distinctiveValues are the values of text that can belong to a scope.
func distinctiveValues(text string) []string {
	var out []string
	for _, re := range []*regexp.Regexp{amountRE, phoneRE, codeRE, numberedNameRE} {
		for _, v := range re.FindAllString(text, -1) {
			if v = strings.TrimSpace(v); len(v) >= 4 && !contains(out, v) {
				out = append(out, v)
			}
		}
	}
	for _, v := range sentenceOpenedNames(text) {
		if !contains(out, v) {
			out = append(out, v)
		}
	}
	return out
}

// sentenceStartRE: what a sentence's first word follows.
var sentenceStartRE = regexp.MustCompile(`(?:^|[.!?:;]\s+|["“‘'(]\s*)$`)

// sentenceOpenedNames are the numbered names of text that open a sentence,
// less their first word: "Private Residence Suite 327 and …" may capitalise
// "Private" only because it opens the sentence, and the value said before
// is "Residence Suite 327" — without this, a restatement led by an
// adjective would own a name of its own and escape the value's owner.
func sentenceOpenedNames(text string) []string {
	var out []string
	for _, m := range numberedNameRE.FindAllStringIndex(text, -1) {
		words := strings.Fields(text[m[0]:m[1]])
		if len(words) < 4 || !sentenceStartRE.MatchString(text[:m[0]]) {
			continue // a name of two words and a number keeps both
		}
		out = append(out, strings.Join(words[1:], " "))
	}
	return out
}

// withValueOwners adds to d the scopes that own a distinctive value text
// restates (see above). It reads every fragment: a turn's values must be
// checked against everything said before.
func (a *App) withValueOwners(ctx context.Context, text string, d ScopeDecision) (ScopeDecision, error) {
	vals := append(distinctiveValues(text), ownedNames(text, a.scopes())...) // proper names too (conversation_names.go)
	if len(vals) == 0 {
		return d, nil
	}
	type owner struct {
		rev    uint64
		scopes []string
	}
	first, firstMany := map[string]owner{}, map[string]owner{}
	err := a.everyFragment(ctx, func(f vectors.Fragment) {
		info, ok := a.fragments.Get(f.ID)
		if !ok {
			return
		}
		var scopes []string
		for _, ag := range f.Agents {
			if s, ok := strings.CutPrefix(ag, scopePrefix); ok {
				scopes = append(scopes, s)
			}
		}
		into := first
		if len(scopes) != 1 {
			// A text that already needed several scopes says where a
			// value was repeated, not where it belongs — unless no
			// one-scope text ever said it (sharedOwners).
			into = firstMany
		}
		if len(scopes) == 0 {
			return
		}
		for _, s := range scopes {
			if _, own := scopeBase(s); !own {
				// A copy for summary, class or withheld readers
				// follows its original, and a vaulted turn keeps its
				// value in the vault: neither owns anything.
				return
			}
		}
		text := normalize(f.Value)
		for _, v := range vals {
			o, seen := into[v]
			if (!seen || info.Revision < o.rev) && strings.Contains(text, normalize(v)) {
				into[v] = owner{info.Revision, scopes}
			}
		}
	})
	if err != nil {
		return d, err
	}
	earlier := map[string][]string{}
	for v, m := range firstMany {
		// Said first in a text of several scopes, before any one-scope
		// text said it (an outsider's note, with their own record), it
		// belongs to them all, and a later one-scope restatement does
		// not take it from them: both count, the narrower reading.
		if o, ok := first[v]; (!ok || m.rev < o.rev) && sharedOwners(d.Scopes, m.scopes) {
			earlier[v] = m.scopes
		}
	}
	var added []string
	for _, v := range vals {
		for _, s := range append(append([]string{}, first[v].scopes...), earlier[v]...) {
			if !contains(d.Scopes, s) && !contains(added, s) {
				added = append(added, s)
			}
		}
	}
	if len(added) > 0 {
		d.Scopes = events.SortedSet(append(append([]string{}, d.Scopes...), added...))
		d.Reason += "; restates a value first said in " + strings.Join(added, ",")
	}
	return d, nil
}

// sharedOwners says whether a value with no one-scope owner, first said
// in a text that needed the scopes first, belongs to them for a turn going
// to scopes: when the turn shares none of them. Restated into a scope
// with no part in where it was first said ("close to Liam's private 3,330
// USD", said in a public program after a finance note that went to a
// case and a record), it needs them all; restated in one of them it is
// that scope's own business, as before.
func sharedOwners(scopes, first []string) bool {
	for _, s := range first {
		if contains(scopes, s) {
			return false
		}
	}
	return true
}
