package semantic

import (
	"context"
	"math"
	"strings"

	"github.com/cmem/cmem/embedding"
)

// Model is the name of the embedder and its parameters; it changes
// whenever vectors.bin or any step of Vector changes, so that stored
// vectors are never compared across versions.
const Model = "sem-wink100-v1"

// SIF parameters: a word of estimated corpus probability p weighs
// sifA/(sifA+p) (Arora et al., 2017), with p taken from the word's
// frequency rank r by Zipf's law, p = 1/((r+1)·zipfH).
const (
	sifA  = 1e-3
	zipfH = 13.5 // ≈ ln(400,000) + γ, the harmonic number of the source vocabulary
	// negatedKeep is how much of a negated word's own vector remains; the
	// rest is a vector private to "not <word>".
	negatedKeep = 0.5
	// properKeep is how much of a name's vector is the word's meaning;
	// the rest is a vector private to the word, so that two cities are
	// two different subjects.
	properKeep = 0.4
	// whWeight is the weight of a question-type token (who, when, where,
	// why, how many) in a sentence vector.
	whWeight = 0.5
)

// Embedder is the semantic Embedder. Its zero value is not usable; call
// New.
type Embedder struct {
	t *table
}

var _ embedding.Embedder = (*Embedder)(nil)

// New returns the embedder; it fails only if the embedded vector or
// related-word file is damaged (a build problem, not an input problem).
func New() (*Embedder, error) {
	t, err := vocabulary()
	if err != nil {
		return nil, err
	}
	if _, err := relations(); err != nil {
		return nil, err
	}
	return &Embedder{t: t}, nil
}

// Must is New for package initialisation and tests: it panics on a
// damaged build.
func Must() *Embedder {
	e, err := New()
	if err != nil {
		panic(err)
	}
	return e
}

// Model returns Model.
func (e *Embedder) Model() string { return Model }

// Dims returns 100.
func (e *Embedder) Dims() int { return e.t.dims }

// Embed returns one vector per text, in order. It fails only when ctx is
// done.
func (e *Embedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	return embedding.Each(ctx, texts, e.Vector)
}

// Vector embeds one text: the SIF-weighted sum of the unit vectors of its
// content words (a word repeated counts each time), a negated word
// keeping only negatedKeep of its vector and adding the rest as a vector
// of its own, L2-normalised. A text without content words is the zero
// vector.
func (e *Embedder) Vector(text string) []float32 {
	acc := make([]float64, e.t.dims)
	for _, tk := range tokens(text) {
		if tk.wh {
			addScaled(acc, hashed(tk.word, e.t.dims), whWeight)
			continue
		}
		v, w := e.word(tk.word)
		if tk.proper {
			addScaled(acc, hashed(tk.word, e.t.dims), w*math.Sqrt(1-properKeep*properKeep))
			w *= properKeep
		}
		keep := 1.0
		if tk.negated {
			keep = negatedKeep
			addScaled(acc, hashed("not "+tk.word, e.t.dims), w*(1-keep))
		}
		addScaled(acc, v, w*keep)
	}
	return embedding.Normalize64(acc)
}

// word returns the unit vector and SIF weight of a word: its own, its
// singular's ("dishes" → "dish"), or for a word outside the vocabulary a
// pseudo-random unit vector of its own with the weight of a rare word.
func (e *Embedder) word(w string) ([]float32, float64) {
	if i, ok := e.lookup(w); ok {
		p := 1 / (float64(i+1) * zipfH)
		return e.t.vecs[int(i)*e.t.dims : int(i+1)*e.t.dims], sifA / (sifA + p)
	}
	return hashed(w, e.t.dims), 1
}

func (e *Embedder) lookup(w string) (int32, bool) {
	if i, ok := e.t.index[w]; ok {
		return i, true
	}
	for _, s := range []string{"es", "s"} {
		if len(w) > len(s)+2 && strings.HasSuffix(w, s) {
			if i, ok := e.t.index[strings.TrimSuffix(w, s)]; ok {
				return i, true
			}
		}
	}
	return 0, false
}

func addScaled(acc []float64, v []float32, w float64) {
	for i, x := range v {
		acc[i] += w * float64(x)
	}
}

// hashed is a deterministic pseudo-random unit vector for s: splitmix64
// seeded by FNV-1a of s, components uniform in [-1,1), normalised.
func hashed(s string, dims int) []float32 {
	seed := uint64(14695981039346656037)
	for i := 0; i < len(s); i++ {
		seed ^= uint64(s[i])
		seed *= 1099511628211
	}
	v := make([]float32, dims)
	var norm float64
	for i := range v {
		seed += 0x9e3779b97f4a7c15
		z := seed
		z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
		z = (z ^ z>>27) * 0x94d049bb133111eb
		z ^= z >> 31
		x := float64(z>>11)/float64(1<<52) - 1
		v[i] = float32(x)
		norm += x * x
	}
	inv := float32(1 / math.Sqrt(norm))
	for i := range v {
		v[i] *= inv
	}
	return v
}

// MinScore is the default relevance floor of views built with this
// embedder: on the paraphrase benchmark, a question and a fragment key
// about something else score below it, and paraphrases score above.
const MinScore = 0.2

// RelevanceFloor returns MinScore.
func (e *Embedder) RelevanceFloor() float32 { return MinScore }

// Weight is how much word counts in a text's meaning, the weight Vector
// gives it: near 1 for a rare word or one outside the vocabulary, small
// for a common one ("really", "great"). The offline answerer weighs a
// question's words with it when it picks the sentence that answers.
func (e *Embedder) Weight(word string) float64 {
	_, w := e.word(strings.ToLower(word))
	return w
}
