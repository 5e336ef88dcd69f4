package semantic

import "github.com/cmem/cmem/embedding"

var _ embedding.Termer = (*Embedder)(nil)

// Terms implements embedding.Termer: the content words of text as Vector
// weighs them (a word outside the vocabulary is its own pseudo-random
// vector, so it matches only itself), in order. Question-type tokens are
// left out: they ask for an answer's kind and no answer contains them.
func (e *Embedder) Terms(text string) []embedding.Term {
	var out []embedding.Term
	for _, tk := range tokens(text) {
		if tk.wh {
			continue
		}
		v, w := e.word(tk.word)
		out = append(out, embedding.Term{Word: tk.word, Vec: v, Weight: w})
	}
	return out
}
