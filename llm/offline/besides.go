package offline

import (
	"regexp"
	"strings"
)

// "What language does Tim speak besides German?" names what the answer is
// not: a clause that says German is what the asker already knows, and the
// answer is the other one.

// setAside is the words that start naming what a question sets aside.
const setAside = `(?:besides|other than|apart from|aside from|except(?:\s+for)?|excluding|not counting|leaving out)`

// besidesRE is an exclusion in a question: "besides X", "other than X",
// "apart from X", "except (for) X"…, X up to the question mark or a comma.
var besidesRE = regexp.MustCompile(`(?i)\b` + setAside + `\s+([^?,]+)`)

// setAsideRE finds where a segment of a question starts naming what it
// sets aside.
var setAsideRE = regexp.MustCompile(`(?i)\s` + setAside + `\s`)

// withoutSetAside returns segment up to what it sets aside: "What is the
// home recovery list besides the blood pressure medicine?" asks for the
// list; the medicine is no part of what is asked.
func withoutSetAside(segment string) string {
	if loc := setAsideRE.FindStringIndex(segment); loc != nil {
		return segment[:loc[0]]
	}
	return segment
}

// excluded is the stems of the content words a question's exclusion names
// (nil when it names none).
func excluded(question string) map[string]bool {
	m := besidesRE.FindStringSubmatch(question)
	if m == nil {
		return nil
	}
	out := map[string]bool{}
	for _, w := range contentWords(m[1]) {
		out[stem(w)] = true
	}
	return out
}

// saysExcluded reports whether text holds more than half of the words the
// question's exclusion names.
func saysExcluded(ex map[string]bool, text string) bool {
	if len(ex) == 0 {
		return false
	}
	n := 0
	seen := map[string]bool{}
	for _, w := range contentWords(strings.ToLower(text)) {
		if s := stem(w); ex[s] && !seen[s] {
			seen[s] = true
			n++
		}
	}
	return 2*n > len(ex)
}
