package hashing

import (
	"context"
	"fmt"
	"math"

	"github.com/cmem/cmem/embedding"
)

// DefaultDims is the vector length of New(0).
const DefaultDims = 256

// Embedder is the deterministic offline Embedder: signed feature hashing of
// words and word pairs. It needs no model and no network, and the same
// text gives the same vector on every machine and every run, which is
// what lets projections be rebuilt byte for byte from the log.
//
// The vector of a text is computed as follows.
//
//   - Tokens: embedding.Tokenize(text): Unicode lower-case, split on runes that are
//     neither letters nor digits, tokens of one rune and English stop
//     words dropped, plurals folded.
//   - Features: every token (unigram), and every pair of adjacent tokens
//     (bigram, the two tokens joined by one space), adjacency taken after
//     stop-word removal.
//   - Weights: a feature occurring tf times weighs 1+ln(tf); bigrams weigh
//     half as much as unigrams.
//   - Hashing: h = FNV-1a 64 of the feature's UTF-8 bytes; the feature adds
//     its weight to component h mod Dims, with sign − if bit 63 of h is
//     set and + otherwise (signed hashing, so collisions cancel in
//     expectation instead of piling up).
//   - The vector is L2-normalised. A text without tokens (empty, only stop
//     words or punctuation) is the zero vector, which has cosine 0 with
//     everything.
//
// Sums are taken in float64 in first-occurrence order and only then
// rounded to float32, so results do not depend on map iteration order.
type Embedder struct {
	dims int
}

var _ embedding.Embedder = (*Embedder)(nil)

// New returns a hashing embedder of dims dimensions; dims <= 0
// means DefaultDims.
func New(dims int) *Embedder {
	if dims <= 0 {
		dims = DefaultDims
	}
	return &Embedder{dims: dims}
}

// Model returns "hash-v1-<dims>". The version changes whenever any step
// above changes, so stored vectors are never compared across versions.
func (h *Embedder) Model() string { return fmt.Sprintf("hash-v1-%d", h.dims) }

// Dims returns the vector length.
func (h *Embedder) Dims() int { return h.dims }

// Embed returns one vector per text, in order. It fails only when ctx is
// done.
func (h *Embedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	return embedding.Each(ctx, texts, h.Vector)
}

// Vector embeds one text; it is Embed without the context, for in-process
// callers such as the offline LLM provider.
func (h *Embedder) Vector(text string) []float32 {
	tokens := embedding.Tokenize(text)
	type feature struct {
		key    string
		weight float64
		tf     int
	}
	var feats []feature
	index := make(map[string]int, 2*len(tokens))
	add := func(key string, weight float64) {
		if i, ok := index[key]; ok {
			feats[i].tf++
			return
		}
		index[key] = len(feats)
		feats = append(feats, feature{key: key, weight: weight, tf: 1})
	}
	for i, t := range tokens {
		add(t, 1)
		if i > 0 {
			add(tokens[i-1]+" "+t, 0.5)
		}
	}
	acc := make([]float64, h.dims)
	for _, f := range feats {
		sum := fnv1a64(f.key)
		w := f.weight * (1 + math.Log(float64(f.tf)))
		if sum>>63 == 1 {
			w = -w
		}
		acc[sum%uint64(h.dims)] += w
	}
	return embedding.Normalize64(acc)
}

// fnv1a64 is FNV-1a 64 (as hash/fnv.New64a) without its allocations.
func fnv1a64(s string) uint64 {
	const (
		offset = 14695981039346656037
		prime  = 1099511628211
	)
	h := uint64(offset)
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= prime
	}
	return h
}

// RelevanceFloor is the default relevance floor of views built with this
// embedder: 0.01, which only drops hits sharing no word with the query
// (hashing scores are word overlap; any shared word counts).
func (h *Embedder) RelevanceFloor() float32 { return 0.01 }
