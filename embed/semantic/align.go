package semantic

// Align returns how much of query text covers, in [0,1]: for every
// content word of query, the best cosine similarity (at least 0) between
// its vector and the vector of a content word of text; the result is the
// mean of the SIF-weighted average of these and of the least of them, so
// that a query word nothing in text answers (the attribute asked for)
// costs more than its share. The same word with opposite negation counts
// half; two different names count properKeep² of their similarity. A
// query without content words aligns 0.
//
// Unlike the cosine of two sentence vectors, Align cannot be carried by
// one shared rare word: "population of Lyon" covers only half of "food of
// Lyon", however rare "Lyon" is.
func (e *Embedder) Align(query, text string) float32 {
	q, t := tokens(query), tokens(text)
	if len(q) == 0 {
		return 0
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
	var sum, weights float64
	least := 1.0
	for _, qt := range q {
		qv, w := e.word(qt.word)
		best := 0.0
		for _, c := range tv {
			var s float64
			if c.tok.word == qt.word {
				s = 1
			} else {
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
		least = min(least, best)
	}
	return float32((sum/weights + least) / 2)
}

func dot(a, b []float32) float64 {
	var s float64
	for i := range a {
		s += float64(a[i]) * float64(b[i])
	}
	return s
}
