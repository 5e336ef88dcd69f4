package app

import (
	"regexp"
	"strings"
)

// A reader of a governed record asks in their own words: "the diagnosis"
// for the note's "current suspicion", "the customer description" for
// its "wording". The memory view ranks by the question's words, so a
// scope's reader's view is asked with the few words an organisation's
// notes use for the same thing added (the composer reads them as one,
// llm/offline/compose_synonym.go). Only the ranking changes: every hit is
// still filtered and re-checked against the graphs.

// sameWords maps a word of a question to the words notes use for it.
var sameWords = map[string][]string{
	"diagnosis":   {"suspicion", "root cause", "hypothesis"},
	"description": {"wording"},
	"phrasing":    {"wording"},
	"callback":    {"contact", "phone"},
	"booked":      {"scheduled"},
	"medication":  {"medicine"},
	"medications": {"medicines"},
	"medicine":    {"medication"},
	"medicines":   {"medications"},
}

var queryWordRE = regexp.MustCompile(`[A-Za-z]+`)

// expandedQuery returns question with the words notes use for its words
// appended (sameWords), question itself when it has none.
func expandedQuery(question string) string {
	var extra []string
	seen := map[string]bool{}
	for _, w := range queryWordRE.FindAllString(question, -1) {
		for _, s := range sameWords[strings.ToLower(w)] {
			if !seen[s] {
				seen[s] = true
				extra = append(extra, s)
			}
		}
	}
	if len(extra) == 0 {
		return question
	}
	return question + " " + strings.Join(extra, " ")
}
