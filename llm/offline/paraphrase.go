package offline

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/cmem/cmem/llm"
)

// firstPerson maps first-person forms to neutral third-person ones. The
// verb forms listed are the ones a bare pronoun swap would make
// ungrammatical ("I am" → "the user is"); other verbs are left as they are.
var firstPerson = map[string]string{
	"i am": "the user is", "i'm": "the user is", "i was": "the user was",
	"i have": "the user has", "i've": "the user has", "i'd": "the user would",
	"i'll": "the user will", "i": "the user", "me": "the user", "my": "the user's",
	"mine": "the user's", "myself": "the user",
	"we": "they", "we're": "they're", "we've": "they've", "we'll": "they'll",
	"our": "their", "ours": "theirs", "ourselves": "themselves",
}

// Longest alternatives first, so "i am" wins over "i". "us" is left out:
// it cannot be told apart from "US".
var firstPersonRE = regexp.MustCompile(`(?i)\b(?:i am|i'm|i was|i have|i've|i'd|i'll|we're|we've|we'll|` +
	`ourselves|myself|mine|ours|our|my|me|we|i)\b`)

// paraphraseOffline is the offline "paraphrase": a deterministic light
// rewrite, not a generative one. It keeps sentence order and every fact,
// normalises white space (one space between words, one line per original
// paragraph) and neutralises first-person pronouns to "the user"/"they",
// capitalising at sentence starts. It does not reword anything else.
func paraphraseOffline(text string) string {
	text = strings.ReplaceAll(text, "’", "'")
	var paras []string
	for _, p := range strings.Split(text, "\n") {
		if p = llm.Squash(p); p != "" {
			paras = append(paras, neutralise(p))
		}
	}
	return strings.Join(paras, "\n")
}

func neutralise(s string) string {
	locs := firstPersonRE.FindAllStringIndex(s, -1)
	if locs == nil {
		return s
	}
	var b strings.Builder
	last := 0
	for _, l := range locs {
		b.WriteString(s[last:l[0]])
		rep := firstPerson[strings.ToLower(s[l[0]:l[1]])]
		if sentenceStart(s[:l[0]]) {
			r, size := utf8.DecodeRuneInString(rep)
			rep = string(unicode.ToUpper(r)) + rep[size:]
		}
		b.WriteString(rep)
		last = l[1]
	}
	b.WriteString(s[last:])
	return b.String()
}

// sentenceStart reports whether a word after prefix begins a sentence.
func sentenceStart(prefix string) bool {
	p := strings.TrimRight(prefix, " \t\"'(")
	if p == "" {
		return true
	}
	last := p[len(p)-1]
	return last == '.' || last == '!' || last == '?' || last == ':'
}
