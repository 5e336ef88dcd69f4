package app

import (
	"regexp"
	"strings"
)

// What a turn states is what is remembered of it. A question, or a request
// to be told something ("tell me whether…", "I only need the ride time"),
// states nothing: keeping it would only put the asker's own words — often
// the very value they are probing for — before the model later, and
// answer a later question with the guess of an earlier one.

// requestRE finds a sentence that asks to be told or given something.
var requestRE = regexp.MustCompile(`(?i)(\b(tell|give|send|show|remind|share with|paste|restore|fetch|complete|read)\s+(me|us)\b|\b(can|could|would|will)\s+you\b|^\s*(i|we)\s+(only\s+|just\s+|still\s+|also\s+)?(need|want)\b|\bneeds?\s+to\s+know\b|\b(just|only)\s+(confirm|tell|say)\b|\byes\s+or\s+no\b)`)

// statementRE is one sentence of a turn: it ends at . ! or ? followed by
// a space or the end, so a decimal ("12.5 mg", "fever over 100.4") stays
// whole — cut there, its fraction became a sentence of its own and was
// dropped as a one-word statement, and the remembered dose was wrong.
var statementRE = regexp.MustCompile(`(?:[^.!?]|[.!?]+[^\s.!?"'”’)])+(?:[.!?]+["'”’)]?|$)`)

// statements returns the sentences of text that state something: not
// questions, not requests to be told something. Empty when the turn only
// asks.
func statements(text string) string {
	var kept []string
	for _, s := range statementRE.FindAllString(text, -1) {
		s = strings.TrimSpace(s)
		// A one-word sentence ("Yes.", "Fine.") states nothing without
		// what it answers.
		if len(strings.Fields(s)) < 2 || strings.HasSuffix(strings.TrimRight(s, `"'”’)`), "?") || requestRE.MatchString(s) {
			continue
		}
		kept = append(kept, s)
	}
	return strings.Join(kept, " ")
}
