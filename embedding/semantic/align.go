package semantic

import "strings"

// Align returns how well query and text match word for word, in [0,1].
// In one direction: for every content word of query, the best cosine
// similarity (at least 0) between its vector and that of a content word
// of text; the score is the mean of the SIF-weighted average of these and
// of the least of them, so that a query word nothing in text answers (the
// attribute asked for) costs more than its share. Align is the better of
// the two directions, so a short question is not penalised for what a
// longer one adds. The same word with opposite negation counts half; two
// different names count properKeep² of their similarity, and a name of
// the query side missing from the other side halves that direction's mean
// and zeroes its least; a question-type
// word (who, when, where, why, how many) only matches the same one, and
// is not asked of a statement (text without "?" or question words). A
// query or text without content words aligns 0.
//
// Unlike the cosine of two sentence vectors, Align cannot be carried by
// one shared rare word: "population of Lyon" covers only half of "food of
// Lyon", however rare "Lyon" is.
func (e *Embedder) Align(query, text string) float32 {
	var best float64
	for _, d := range [2][2]string{{query, text}, {text, query}} {
		if mean, least, ok := e.alignParts(d[0], d[1]); ok {
			best = max(best, (mean+least)/2)
		}
	}
	return float32(best)
}

// namePenalty scales the mean of a direction whose query side names a
// subject the other side does not.
const namePenalty = 0.5

// alignParts returns the SIF-weighted mean and the least of the query
// words' best matches in text; ok is false when no query word counts.
func (e *Embedder) alignParts(query, text string) (mean, least float64, ok bool) {
	q, t := tokens(query), tokens(text)
	if len(q) == 0 || len(t) == 0 {
		return 0, 0, false
	}
	type vec struct {
		v   []float32
		tok token
	}
	tv := make([]vec, len(t))
	for i, tk := range t {
		v, _ := e.word(tk.word)
		tv[i] = vec{v, tk}
	}
	textWh := strings.Contains(text, "?") // a question asks for a kind of answer, stated or not
	for _, c := range t {
		textWh = textWh || c.wh
	}
	var sum, weights float64
	least = 1.0
	missingName := false
	for _, qt := range q {
		if qt.wh && !textWh {
			// A statement answers a question without asking one back; it
			// answers "who" with a name, "when" or "how many" with a number.
			if got, ok := answerType(qt.word, q, t); ok {
				sum += got
				weights++
				least = min(least, got)
			}
			continue
		}
		qv, w := e.word(qt.word)
		best := 0.0
		for _, c := range tv {
			var s float64
			switch {
			case c.tok.word == qt.word:
				s = 1
			case c.tok.wh || qt.wh:
				s = 0
			default:
				s = dot(qv, c.v)
			}
			if c.tok.word != qt.word && (c.tok.proper || qt.proper) {
				s *= properKeep * properKeep // another name is another subject
			}
			if c.tok.negated != qt.negated {
				s /= 2
			}
			if s > best {
				best = s
			}
		}
		sum += w * best
		weights += w
		// A frequent word missing costs less than a rare one: "main" in
		// "the main language" is not what is asked.
		least = min(least, 1-w*(1-best))
		missingName = missingName || qt.proper && best < 1
	}
	if weights == 0 {
		return 0, 0, false
	}
	if missingName {
		// A question about another subject is another question, however
		// alike the rest of the words.
		return sum / weights * namePenalty, 0, true
	}
	return sum / weights, least, true
}

func dot(a, b []float32) float64 {
	var s float64
	for i := range a {
		s += float64(a[i]) * float64(b[i])
	}
	return s
}

// answerType scores whether statement t holds the kind of answer a
// question-type token asks for: a name not in the question for "who" and
// "where", a number for "when" and "how many"; ok is false for kinds it
// cannot check ("why").
func answerType(kind string, q, t []token) (float64, bool) {
	asked := map[string]bool{}
	for _, x := range q {
		asked[x.word] = true
	}
	for _, x := range t {
		switch kind {
		case whPrefix + "who", whPrefix + "where":
			if x.proper && !asked[x.word] {
				return 1, true
			}
		case whPrefix + "when", whPrefix + "quantity":
			if isNumber(x.word) {
				return 1, true
			}
		default:
			return 0, false
		}
	}
	return 0, kind != whPrefix+"why"
}

func isNumber(w string) bool {
	for _, r := range w {
		if r < '0' || r > '9' {
			return false
		}
	}
	return w != ""
}
