package app

import (
	"regexp"
	"strings"
)

// A proper name of two or more words said mid-sentence ("the external
// customer is Northwind Freight") belongs, like a token or an amount, to
// the scope it was first said in (conversation_owners.go): a neighbouring
// project's thread that names it ("keep Northwind Freight and Northwind
// Fieldworks apart") is read only by readers of both. A name holding a
// scope's own naming word (a project, a person with a record), a month or
// a weekday is how scopes and dates are spoken of, and owns nothing; a
// name at the start of a sentence is not taken (the capital may be the
// sentence's), nor the words of a numbered name ("Juniper Commons 731"
// is its own value: the hall's other rooms are other values).

// properNameRE is a run of capitalised words after a lowercase word, a
// comma, a colon or an opening quote.
var properNameRE = regexp.MustCompile(`(?:[a-z,;:(]\s+|["“‘'])([A-Z][a-z]+(?:\s+[A-Z][A-Za-z]+)+)`)

// numberNextRE: a number follows the name.
var numberNextRE = regexp.MustCompile(`^\s+\d`)

// ownedNames are the proper names of text that can belong to a scope.
func ownedNames(text string, scopes []scopeInfo) []string {
	var out []string
names:
	for _, m := range properNameRE.FindAllStringSubmatchIndex(text, -1) {
		name := text[m[2]:m[3]]
		if numberNextRE.MatchString(text[m[3]:]) {
			continue // a numbered name ("Commons Hall 329") is the value, not its words (conversation_owners.go)
		}
		for _, w := range strings.Fields(name) {
			if calendarWords[strings.ToLower(w)] { // governance_erase.go
				continue names
			}
		}
		for _, sc := range scopes {
			if sc.name != nil && sc.name.MatchString(name) || namesake(name, sc) {
				continue names
			}
		}
		if !contains(out, name) {
			out = append(out, name)
		}
	}
	return out
}
