package memory

import (
	"strings"
	"unicode"
)

// The offline supersession rule (mem0's UPDATE without a model): a new
// fragment is a version of an earlier one's fact when both name the same
// subject and attribute, which cmem's keys do ("Lumen cooperative third
// quarter revenue", "alice's favourite food"), so two keys that read the
// same once normalised name one fact. Normalising lower-cases, drops
// possessive 's, punctuation and the articles, and collapses spaces:
// "The capital of France?" and "capital of france" are one fact; "capital
// of France" and "France's capital" are not (word order is kept, because
// "revenue of costs" and "costs of revenue" differ). Only fragments of the
// same tier are versions of each other, and private ones only of the same
// user's. A key with nothing left after normalising names no fact.

// RuleSameKey names the offline rule in a FragmentSuperseded's decision.
const RuleSameKey = "rule:same_key"

var articles = map[string]bool{"the": true, "a": true, "an": true}

// FactKey is key normalised for the same-key rule; "" names no fact.
func FactKey(key string) string {
	var words []string
	for _, w := range strings.FieldsFunc(strings.ToLower(key), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '\''
	}) {
		w = strings.TrimSuffix(strings.TrimSuffix(w, "'s"), "'")
		w = strings.Trim(w, "'")
		if w != "" && !articles[w] {
			words = append(words, w)
		}
	}
	return strings.Join(words, " ")
}

// SameFact reports whether fragments a and b are versions of one fact
// under the offline rule.
func SameFact(a, b FragmentInfo) bool {
	return a.ID != b.ID && a.Fact != "" && a.Fact == b.Fact && a.Tier == b.Tier &&
		(a.Tier != "private" || a.User == b.User)
}
