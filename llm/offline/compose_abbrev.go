package offline

import (
	"regexp"
	"strings"
)

// A note's abbreviations end in a full stop that ends no sentence: "do
// not restart St. John's wort", "C. difficile negative", "seen by Dr.
// Shah". Cut there, the clause loses the value it names ("do not restart
// St"), so a piece ending in one is read on with the next.

// abbrevEndRE matches a piece that ends in an abbreviation: a single
// capital letter, or a title or short form a note writes before a name.
var abbrevEndRE = regexp.MustCompile(`(?:^|[\s(])(?:[A-Z]|St|Dr|Mr|Mrs|Ms|Mt|Jr|Sr|vs|approx|No)\.["'”’]?\s*$`)

// factSentences splits text into sentences (factSentenceRE), joining a
// piece that ends in an abbreviation to the one after it.
func factSentences(text string) []string {
	var out []string
	carry := ""
	for _, s := range factSentenceRE.FindAllString(text, -1) {
		s = carry + s
		carry = ""
		if abbrevEndRE.MatchString(s) {
			carry = s
			continue
		}
		out = append(out, s)
	}
	if strings.TrimSpace(carry) != "" {
		out = append(out, carry)
	}
	return out
}
