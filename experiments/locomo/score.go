package locomo

import (
	"strings"
	"unicode"

	porter "github.com/blevesearch/go-porterstemmer"
)

// The scoring of LoCoMo's task_eval/evaluation.py, ported rule for rule:
// normalize_answer, f1_score (Porter-stemmed token F1), f1 (category 1:
// the answers split on commas, each gold part scored against its best
// predicted part, averaged) and eval_question_answering's per-category
// dispatch (category 3 scores against the gold answer's part before the
// first ";"; category 5 is right when the answer says "no information
// available" or "not mentioned").

// Categories names LoCoMo's question categories by their number in
// locomo10.json.
var Categories = map[int]string{1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop", 5: "adversarial"}

// asciiPunct is Python's string.punctuation.
const asciiPunct = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"

// Normalize is LoCoMo's normalize_answer: commas dropped, lower case,
// ASCII punctuation removed, the words a, an, the and and removed, spaces
// collapsed.
func Normalize(s string) string {
	s = strings.ReplaceAll(s, ",", "")
	s = strings.ToLower(s)
	s = strings.Map(func(r rune) rune {
		if strings.ContainsRune(asciiPunct, r) {
			return -1
		}
		return r
	}, s)
	s = removeArticles(s)
	return strings.Join(strings.Fields(s), " ")
}

// removeArticles replaces every whole word a, an, the, and by a space, as
// Python's re.sub(r'\b(a|an|the|and)\b', ' ', s) does on str: a word is a
// run of Unicode letters, digits and underscores.
func removeArticles(s string) string {
	word := func(r rune) bool { return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) }
	var b strings.Builder
	rs := []rune(s)
	for i := 0; i < len(rs); {
		if !word(rs[i]) {
			b.WriteRune(rs[i])
			i++
			continue
		}
		j := i
		for j < len(rs) && word(rs[j]) {
			j++
		}
		switch w := string(rs[i:j]); w {
		case "a", "an", "the", "and":
			b.WriteByte(' ')
		default:
			b.WriteString(w)
		}
		i = j
	}
	return b.String()
}

// tokens are the Porter stems of s's normalised words.
func tokens(s string) []string {
	f := strings.Fields(Normalize(s))
	for i, w := range f {
		f[i] = porter.StemString(w)
	}
	return f
}

// TokenF1 is LoCoMo's f1_score: the F1 of the stemmed token multisets of
// prediction and gold, 0 when they share none.
func TokenF1(prediction, gold string) float64 {
	p, g := tokens(prediction), tokens(gold)
	counts := map[string]int{}
	for _, t := range g {
		counts[t]++
	}
	same := 0
	for _, t := range p {
		if counts[t] > 0 {
			counts[t]--
			same++
		}
	}
	if same == 0 {
		return 0
	}
	precision, recall := float64(same)/float64(len(p)), float64(same)/float64(len(g))
	return 2 * precision * recall / (precision + recall)
}

// MultiF1 is LoCoMo's f1 for multi-hop answers: prediction and gold split
// on commas; each gold part takes its best predicted part; the mean.
func MultiF1(prediction, gold string) float64 {
	preds, golds := strings.Split(prediction, ","), strings.Split(gold, ",")
	var sum float64
	for _, g := range golds {
		best := 0.0
		for _, p := range preds {
			best = max(best, TokenF1(strings.TrimSpace(p), strings.TrimSpace(g)))
		}
		sum += best
	}
	return sum / float64(len(golds))
}

// Score is a question's score by LoCoMo's rules for its category; ok is
// false for a category LoCoMo does not define.
func Score(category int, prediction, gold string) (score float64, ok bool) {
	switch category {
	case 1:
		return MultiF1(prediction, gold), true
	case 2, 4:
		return TokenF1(prediction, gold), true
	case 3:
		gold, _, _ = strings.Cut(gold, ";")
		return TokenF1(prediction, strings.TrimSpace(gold)), true
	case 5:
		p := strings.ToLower(prediction)
		if strings.Contains(p, "no information available") || strings.Contains(p, "not mentioned") {
			return 1, true
		}
		return 0, true
	}
	return 0, false
}
