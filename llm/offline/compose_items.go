package offline

import (
	"regexp"
	"strings"
)

// itemSplitRE is where a clause's next listed item may start (its
// group): after a comma, and at "and" opening a new statement ("… moves
// to December 5, 2027 and the blocker is now …").
var itemSplitRE = regexp.MustCompile(`,\s+(?:and\s+)?(\S)|\s+and\s+((?:the|there|its|her|his|their|no)\s)`)

// yearStartRE is a year after a comma: it continues a date ("May 19,
// 2026"), it starts no item.
var yearStartRE = regexp.MustCompile(`^(?:19|20)\d\d\b`)

// listedItems returns the listed items of clause c.
func listedItems(c string) []string {
	var out []string
	from := 0
	for _, m := range itemSplitRE.FindAllStringSubmatchIndex(c, -1) {
		next := m[2]
		if next < 0 {
			next = m[4]
		} else if yearStartRE.MatchString(c[next:]) {
			continue
		}
		out = append(out, strings.TrimSpace(c[from:m[0]]))
		from = next
	}
	return append(out, strings.TrimSpace(c[from:]))
}

// itemsOf returns the listed items of clause piece of sentence s; a list
// after a lead-in (listRE) is one statement, whole.
func itemsOf(s, piece string, byItem bool) []string {
	if !byItem || (listRE.MatchString(s) && pastAt(s) < 0) {
		return []string{piece}
	}
	return listedItems(piece)
}

// keepsRE is a request that states what it asks to be kept: "Please keep
// my current amount 3,690 USD … inside the private file", "please
// remember that my current amount is …". Its values are the speaker's
// own statement, not a condition on how to read notes.
var keepsRE = regexp.MustCompile(`(?i)\bplease\s+(?:keep|remember|note|record)\b`)

// hedges says whether text is about how to read notes rather than a fact
// (hedgeRE, intendsOnly), a request that states values aside.
func hedges(text string) bool {
	if keepsRE.MatchString(text) && digitRE.MatchString(text) {
		text = keepsRE.ReplaceAllString(text, "")
	}
	return hedgeRE.MatchString(text) || intendsOnly(text)
}
