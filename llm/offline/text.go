package offline

import (
	"regexp"
	"strings"

	"github.com/cmem/cmem/embedding"
	"github.com/cmem/cmem/llm"
)

// sentences splits text into trimmed sentences: at line breaks, and after
// ., ! or ? followed by white space. Decimals ("3.14") and versions stay
// whole because no space follows their dots; abbreviations ("e.g. this")
// are split, which an extractive answer survives.
func sentences(text string) []string {
	var out []string
	for _, line := range strings.Split(text, "\n") {
		start := 0
		for i := 0; i < len(line); i++ {
			c := line[i]
			if c != '.' && c != '!' && c != '?' {
				continue
			}
			j := i + 1
			for j < len(line) && (line[j] == '.' || line[j] == '!' || line[j] == '?' || line[j] == '"' || line[j] == ')') {
				j++
			}
			if j < len(line) && (line[j] == ' ' || line[j] == '\t') {
				if s := strings.TrimSpace(line[start:j]); s != "" {
					out = append(out, s)
				}
				start = j
				i = j
			}
		}
		if s := strings.TrimSpace(line[start:]); s != "" {
			out = append(out, s)
		}
	}
	return out
}

// sentenceKey is what makes two sentences the same for de-duplication:
// case, spacing and closing punctuation do not count.
func sentenceKey(s string) string {
	return strings.TrimRight(strings.ToLower(llm.Squash(s)), ".!?;: ")
}

// contentWords returns the distinct content words of text, in order of
// first occurrence, as the embedder's tokenizer defines them.
func contentWords(text string) []string {
	seen := map[string]bool{}
	var out []string
	for _, w := range embedding.Tokenize(text) {
		if !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
	}
	return out
}

// idWords turns an identifier such as "market_kb" into words
// ("market kb"), so that names count as description.
func idWords(id string) string {
	return strings.Map(func(r rune) rune {
		if r == '_' || r == '-' || r == '.' || r == '/' || r == ':' {
			return ' '
		}
		return r
	}, id)
}

var (
	wordOps = strings.NewReplacer(
		" multiplied by ", " * ", " times ", " * ", " divided by ", " / ", " plus ", " + ",
		" minus ", " - ", "×", "*", "÷", "/",
	)
	thousandsRE = regexp.MustCompile(`(\d),(\d{3})`)
	exprRunRE   = regexp.MustCompile(`[\d.()+\-*/^% ]+`)
	exprOpRE    = regexp.MustCompile(`[+*/^]| - |\d\s*-\s*\(|\)\s*-`)
	exprNumRE   = regexp.MustCompile(`\d+(?:\.\d+)?`)
)

// arithmetic extracts the longest arithmetic expression of text ("1,200 *
// 1.15 - 300", "two" spelled as words is not understood). It needs two
// numbers and an operator other than a bare hyphen, so that dates
// ("2024-01-15") and ranges ("1990-2024") are not taken for subtractions.
func arithmetic(text string) (string, bool) {
	s := " " + strings.ToLower(text) + " "
	s = wordOps.Replace(s)
	for thousandsRE.MatchString(s) {
		s = thousandsRE.ReplaceAllString(s, "$1$2")
	}
	best := ""
	for _, run := range exprRunRE.FindAllString(s, -1) {
		e := balance(strings.TrimSpace(strings.TrimRight(strings.TrimSpace(run), "+-*/^ .")))
		if len(exprNumRE.FindAllString(e, -1)) < 2 || !exprOpRE.MatchString(e) {
			continue
		}
		if len(e) > len(best) {
			best = e
		}
	}
	return best, best != ""
}

// balance drops unmatched parentheses at either end of e.
func balance(e string) string {
	for {
		open, closed := strings.Count(e, "("), strings.Count(e, ")")
		switch {
		case open > closed && strings.HasPrefix(e, "("):
			e = strings.TrimSpace(e[1:])
		case closed > open && strings.HasSuffix(e, ")"):
			e = strings.TrimSpace(e[:len(e)-1])
		default:
			return e
		}
	}
}
