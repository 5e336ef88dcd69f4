package embedding

// Term is one content word of a text as a word-vector embedder sees it:
// the word's unit vector and its weight in the text's vector (how
// informative the word is).
type Term struct {
	Word   string
	Vec    []float32
	Weight float64
}

// Distinct returns ts without repeats of a word (the first of each kept):
// what a document offers SoftMatch, which takes each query word's best
// match, so a repeat only costs time.
func Distinct(ts []Term) []Term {
	seen := make(map[string]bool, len(ts))
	out := ts[:0:0]
	for _, t := range ts {
		if !seen[t.Word] {
			seen[t.Word] = true
			out = append(out, t)
		}
	}
	return out
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

// dot32 is the dot product of a and b over their common length, four
// lanes at a time.
func dot32(a, b []float32) float64 {
	n := min(len(a), len(b))
	a, b = a[:n], b[:n]
	var s0, s1, s2, s3 float32
	i := 0
	for ; i+4 <= n; i += 4 {
		s0 += a[i] * b[i]
		s1 += a[i+1] * b[i+1]
		s2 += a[i+2] * b[i+2]
		s3 += a[i+3] * b[i+3]
	}
	for ; i < n; i++ {
		s0 += a[i] * b[i]
	}
	return float64(s0 + s1 + s2 + s3)
}
