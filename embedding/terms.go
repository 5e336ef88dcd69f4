package embedding

// Term is one content word of a text as a word-vector embedder sees it:
// the word's unit vector and its weight in the text's vector (how
// informative the word is).
type Term struct {
	Vec    []float32
	Weight float64
}

// Termer is an embedder that can show a text word by word. A text's one
// vector averages its words, so a question's few content words drown in
// a long answer's many; comparing word with word (SoftMatch) keeps them
// apart. Embedders without word vectors (hashing, remote models) do not
// implement it.
type Termer interface {
	Terms(text string) []Term
}

// TermerOf returns e as a Termer, looking through Traced; nil when e
// has no word vectors.
func TermerOf(e Embedder) Termer {
	for {
		switch x := e.(type) {
		case Termer:
			return x
		case Traced:
			e = x.Next
		case *Traced:
			e = x.Next
		default:
			return nil
		}
	}
}

// SoftMatch is how well doc covers query, word by word: the mean over the
// query's terms, weighted by Term.Weight, of each term's best cosine with
// any of doc's terms (below zero counts zero), in [0, 1]. A query word
// found in doc counts 1; a near synonym nearly as much. It is 0 when
// either side has no terms.
func SoftMatch(query, doc []Term) float64 {
	if len(query) == 0 || len(doc) == 0 {
		return 0
	}
	var num, den float64
	for _, q := range query {
		best := 0.0
		for _, d := range doc {
			best = max(best, dot32(q.Vec, d.Vec))
		}
		num += q.Weight * min(best, 1)
		den += q.Weight
	}
	if den == 0 {
		return 0
	}
	return num / den
}

func dot32(a, b []float32) float64 {
	var s float32
	for i := range min(len(a), len(b)) {
		s += a[i] * b[i]
	}
	return float64(s)
}
