package offline

import (
	"regexp"
	"strings"
)

// "How did Joanna feel about …?" and "How does John describe …?" ask
// for a word of feeling or judgement, which a turn says after a verb of
// being or feeling: "it was totally surreal", "the arena was really
// electric", "It's super rewarding".

// kindFeel asks how someone felt or described something.
const kindFeel = "feel"

var (
	feelQuestionRE = regexp.MustCompile(`(?i)^how\s+(?:did|does|do|was|is|were|are)\b.*\b(?:feel|felt|feeling|describe|described)\b`)
	feelSpanRE     = regexp.MustCompile(`(?i)\b(?:felt|feel|feels|feeling|was|is|it's|that's|were|are|looked|looks|seemed|seems|sounds|sounded)\s+((?:(?:so|really|super|totally|pretty|very|quite|truly|absolutely|incredibly|kinda)\s+)*)([a-z][a-z-]+)((?:\s+and\s+[a-z][a-z-]+)?)`)
	// notFeelings follow a verb of being without saying how it was.
	notFeelings = map[string]bool{"like": true, "the": true, "an": true, "my": true, "your": true, "our": true, "not": true,
		"just": true, "going": true, "gonna": true, "been": true, "being": true, "done": true, "there": true, "about": true,
		"all": true, "one": true, "something": true, "that": true, "this": true, "what": true, "it": true, "to": true,
		"such": true, "also": true, "still": true, "always": true, "getting": true, "having": true, "in": true, "on": true}
)

// feelSpan is the first word of feeling text says after a verb of being
// or feeling (with its intensifiers and a second word joined by "and");
// ok is false when it says none.
func feelSpan(question, text string) (string, bool) {
	asked := strings.ToLower(question)
	for _, m := range feelSpanRE.FindAllStringSubmatch(text, -1) {
		w := strings.ToLower(m[2])
		if notFeelings[w] || len(w) < 3 || strings.Contains(asked, " "+w) {
			continue
		}
		span := m[1] + m[2]
		if second := strings.Fields(m[3]); len(second) == 2 && !notFeelings[strings.ToLower(second[1])] {
			span += m[3]
		}
		return strings.TrimSpace(span), true
	}
	return "", false
}
