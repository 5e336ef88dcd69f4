package offline

import (
	"regexp"
	"strings"
)

// "Does John live close to a beach or the mountains?" reads like a yes/no
// question but asks to choose: "Yes" answers nothing. The answer is the
// alternative the supporting memory speaks for.

// choiceRE is a question's last "X or Y?" (Y up to the question mark).
var choiceRE = regexp.MustCompile(`(?i)^(.*\S)\s+or\s+([^?]+?)\s*\?\s*$`)

// choiceArticles open an alternative without being part of it.
var choiceArticles = map[string]bool{"a": true, "an": true, "the": true, "some": true, "to": true, "by": true}

// alternatives returns the two alternatives of a choice question ("a
// national park or a theme park" → "national park", "theme park"): Y is
// what follows "or", X as many words before it (more while they are
// capitalised: "C. S. Lewis"). ok is false for a question without "or",
// or whose alternatives are yes and no.
func alternatives(question string) (x, y string, ok bool) {
	m := choiceRE.FindStringSubmatch(strings.TrimSpace(question))
	if m == nil {
		return "", "", false
	}
	ys := strings.Fields(m[2])
	for len(ys) > 0 && choiceArticles[strings.ToLower(ys[0])] {
		ys = ys[1:]
	}
	before := strings.Fields(m[1])
	if len(ys) == 0 || len(ys) > 4 || len(before) == 0 {
		return "", "", false
	}
	start := max(0, len(before)-len(ys))
	for start > 0 && capitalised(before[start-1]) && capitalised(before[start]) && !notNames[strings.ToLower(before[start-1])] {
		start--
	}
	xs := before[start:]
	for len(xs) > 0 && choiceArticles[strings.ToLower(xs[0])] {
		xs = xs[1:]
	}
	if len(xs) == 0 {
		return "", "", false
	}
	x, y = strings.Join(xs, " "), strings.Join(ys, " ")
	if strings.EqualFold(y, "no") || strings.EqualFold(y, "not") || strings.EqualFold(x, "yes") {
		return "", "", false
	}
	return x, y, true
}

// choose is the alternative of a choice question that support (the
// sentences an answer rests on) aligns with best; ok is false when the
// question offers no choice or both align alike.
func (o *Provider) choose(al aligner, question string, support []string) (string, bool) {
	x, y, ok := alternatives(question)
	if !ok {
		return "", false
	}
	var sx, sy float32
	for _, s := range support {
		_, text := speakerLabel(s)
		sx, sy = max(sx, al.Align(x, text)), max(sy, al.Align(y, text))
	}
	switch {
	case sx > sy:
		return x, true
	case sy > sx:
		return y, true
	}
	return "", false
}

// turnOf is the sentences of the memory item c is from (c alone for a
// tool's sentence).
func turnOf(c rankedSentence, cands []rankedSentence) []string {
	if c.id == "" {
		return []string{c.text}
	}
	var out []string
	for _, x := range cands {
		if x.id == c.id {
			out = append(out, x.text)
		}
	}
	return out
}
