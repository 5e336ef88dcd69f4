package offline

import (
	"math"
	"strings"
	"unicode"

	"github.com/cmem/cmem/embedding"
)

// When memory is all there is (no tool to ask), the sentence that answers
// is picked among many turns of chat, most of them about the question's
// subject and many saying little ("Great to see you!"). Alignment alone
// lets such a short turn win: every one of its few words matches
// something of the question. A weigher instead asks how much of the
// question a sentence says, each question word weighted by how rare it
// is — in English (the embedder's word weight) and among the memory items
// offered (inverse document frequency) — so that "art show" counts and
// "go" does not.

// weigher scores sentences for one question over one set of candidates.
type weigher struct {
	o *Provider
	// df counts, by stem, the memory items (or tool results) holding a
	// word; n is how many there are.
	df   map[string]int
	n    int
	vecs map[string][]float32
}

// newWeigher counts the words of cands by the item they come from.
func (o *Provider) newWeigher(cands []rankedSentence) *weigher {
	w := &weigher{o: o, df: map[string]int{}, vecs: map[string][]float32{}}
	seen := map[string]map[string]bool{}
	for i, c := range cands {
		doc := c.id
		if doc == "" {
			doc = string(rune(i)) + "\x00tool"
		}
		if seen[doc] == nil {
			seen[doc] = map[string]bool{}
			w.n++
		}
		_, text := speakerLabel(c.text)
		for _, t := range contentWords(text) {
			if s := stem(t); !seen[doc][s] {
				seen[doc][s] = true
				w.df[s]++
			}
		}
	}
	return w
}

// weight is how much a question word counts: its rarity in English times
// its rarity among the candidates.
func (w *weigher) weight(word string) float64 {
	sif := 1.0
	if wt, ok := w.o.cfg.Embedder.(interface{ Weight(string) float64 }); ok {
		sif = wt.Weight(word)
	}
	return sif * math.Log(1+float64(w.n+1)/(float64(w.df[stem(word)])+0.5))
}

// vector is the embedder's vector of a word, cached; nil when the
// embedder gives none.
func (w *weigher) vector(word string) []float32 {
	if v, ok := w.vecs[word]; ok {
		return v
	}
	var v []float32
	if e, ok := w.o.cfg.Embedder.(interface{ Vector(string) []float32 }); ok {
		v = e.Vector(word)
	}
	w.vecs[word] = v
	return v
}

// match is how well word q is said among ws: 1 for the same word or stem,
// else the best cosine of their vectors when it reaches attributeMatch
// (a synonym), else 0.
func (w *weigher) match(q string, ws []string) float64 {
	best := 0.0
	qv := w.vector(q)
	for _, x := range ws {
		if sameWord(q, x) || stem(q) == stem(x) {
			return 1
		}
		if qv == nil || contrasting(q, x) {
			continue
		}
		if c := float64(embedding.Cosine(qv, w.vector(x))); c >= attributeMatch {
			best = max(best, c)
		}
	}
	return best
}

// coverage is the weighted share of the question's content words (less
// its names and dates, which select rather than answer) that sentence
// says; 0 for a sentence of fewer than two content words besides the
// names, which says too little to answer.
func (w *weigher) coverage(question string, names []string, sentence string) float32 {
	_, text := speakerLabel(sentence)
	content := question
	for _, n := range names {
		content = replaceFold(content, n)
		text = replaceFold(text, n)
	}
	ws := contentWords(text)
	if len(ws) < 2 {
		return 0
	}
	var sum, total float64
	for _, q := range contentWords(content) {
		if calendarWords[q] || !unicode.IsLetter(rune(q[0])) || strings.HasSuffix(q, "th") && len(q) <= 4 {
			continue
		}
		wt := w.weight(q)
		if timeWords[q] {
			// "last weekend" sets when, and the sentence that says it
			// often only sets the scene for the one that answers.
			wt *= timeWeight
		}
		total += wt
		sum += wt * w.match(q, ws)
	}
	if total == 0 {
		return 0
	}
	return float32(sum / total)
}

// timeWeight scales the weight of a word of time (timeWords) in coverage.
const timeWeight = 0.5
