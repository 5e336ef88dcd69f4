package vectors

import (
	"context"
	"math"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/cmem/cmem/internal/textindex"
)

// Query is a memory search: the query's words for the lexical side and
// their embedding for the vector side.
type Query struct {
	Text   string
	Vector []float32
}

// HybridSearcher is a Store that ranks by a fused lexical and vector
// score. Every backend implements it (the contract suite, vectorstest,
// checks both against the Reference); it is a separate interface so that
// a Store wrapper must say how it serves hybrid search rather than inherit
// a method that would bypass it.
type HybridSearcher interface {
	// HybridSearch returns up to k fragments matching f, best first by
	// Hit.Score (the fused score), ties by ascending ID. Like Search it is
	// exact under the filter: the candidates of both sides are drawn from
	// the fragments matching f only, so a filter never costs a result.
	HybridSearch(ctx context.Context, q Query, f Filter, k int) ([]Hit, error)
}

// The hybrid ranking, measured on LoCoMo's conversations 0–4 (the
// held-out 5–9 were not used to choose it; see app's TestLoCoMoFusion):
// a weighted sum of absolute scores beat reciprocal rank fusion (recall@10
// 0.632 against 0.580) and matched a relative (min-max) fusion (0.633)
// while keeping an absolute meaning, which the relevance floor needs.
//
//	score = prior(n) · (α·cos + (1−α)·L/(L+K))
//
// cos is the cosine of the query vector to the fragment's vector, L the
// BM25 score of the query words in the fragment's key and value (the best
// chunk of a long value; see Chunks) with stemming, so that L/(L+K) is a
// lexical relevance in [0, 1) on the scale of a cosine, and prior(n) =
// 1 − e^(−n/λ) for a value of n tokens damps very short texts: a
// four-word "Where is it?" shares a word with many questions and must not
// outrank the turn that answers them (prior 0.39 at 4 tokens, 0.92 at 20).
// A word in most fragments (a speaker's name in every turn of a
// conversation) has a BM25 idf near zero, so it cannot dominate.
const (
	HybridAlpha       = 0.5
	HybridK           = 5.0
	HybridLengthScale = 8.0
)

// HybridDepth is how many candidates each side contributes for a search
// of k: the top HybridDepth(k) by BM25 and by cosine among the fragments
// matching the filter. A fragment outside the lexical candidates counts
// L = 0. Fixing the depth makes the ranking a plain function a reference
// model can reproduce, and bounds a search's cost on a large view.
func HybridDepth(k int) int { return max(4*k, 50) }

// HybridScore is the fused score of a fragment whose value has n tokens,
// with cosine cos and BM25 score bm25.
func HybridScore(cos, bm25 float64, n int) float64 {
	return LengthPrior(n) * (HybridAlpha*cos + (1-HybridAlpha)*LexicalRelevance(bm25))
}

// LexicalRelevance maps a BM25 score to [0, 1): L/(L+K).
func LexicalRelevance(bm25 float64) float64 {
	if bm25 <= 0 {
		return 0
	}
	return bm25 / (bm25 + HybridK)
}

// LengthPrior is 1 − e^(−n/λ).
func LengthPrior(n int) float64 { return 1 - math.Exp(-float64(n)/HybridLengthScale) }

// TextConfig is the lexical index every backend that indexes text in
// process uses: BM25 with stemming (it lifted recall@10 on LoCoMo's
// conversations 0–4 from 0.568 to 0.592 over the same index without).
func TextConfig() textindex.Config { return textindex.Config{Stem: true} }

// ValueTokens is n in LengthPrior: the number of tokens of a value
// (len(textindex.Tokenize(value)), counted without building them). It is
// counted on every fragment indexed, so ASCII goes byte by byte through a
// table without a branch on the verdict (a word boundary every few bytes
// is a branch the predictor loses); the first byte outside ASCII hands
// the rest to the rune loop, which goes on with the count so far.
func ValueTokens(value string) int {
	n, in := 0, uint8(0)
	for i := 0; i < len(value); i++ {
		c := value[i]
		if c >= utf8.RuneSelf {
			return valueTokensFrom(value[i:], n, in != 0)
		}
		t := asciiWord[c]
		n += int(t &^ in)
		in = t
	}
	return n
}

// valueTokensFrom is ValueTokens of the rest of a value of which n tokens
// were counted, in telling whether a token runs into it.
func valueTokensFrom(rest string, n int, in bool) int {
	for _, r := range rest {
		var tok bool
		if r < utf8.RuneSelf { // ASCII without the unicode tables
			tok = asciiWord[r] != 0
		} else {
			tok = unicode.IsLetter(r) || unicode.IsDigit(r)
		}
		if tok && !in {
			n++
		}
		in = tok
	}
	return n
}

// asciiWord is 1 for the ASCII letters and digits.
var asciiWord = func() (t [utf8.RuneSelf]uint8) {
	for c := range utf8.RuneSelf {
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' {
			t[c] = 1
		}
	}
	return t
}()

// ChunkTokens is how many words of a value one chunk holds; chunks
// overlap by ChunkOverlap words so that a phrase cut at a boundary is
// whole in one of them.
const (
	ChunkTokens  = 200
	ChunkOverlap = 40
)

// Chunks cuts a value into the texts the lexical side indexes, each with
// the key in front (a key names what the value is about): one chunk for a
// value of up to ChunkTokens words, else overlapping windows of
// ChunkTokens words. A fragment's lexical score is its best chunk's, so
// a long document is found by the passage that matches, and a fragment is
// one candidate however many of its chunks match.
func Chunks(key, value string) []string {
	if len(value) <= ChunkTokens || wordCount(value) <= ChunkTokens {
		return []string{key + "\n" + value}
	}
	words := strings.Fields(value)
	var out []string
	for start := 0; ; start += ChunkTokens - ChunkOverlap {
		end := min(start+ChunkTokens, len(words))
		out = append(out, key+"\n"+strings.Join(words[start:end], " "))
		if end == len(words) {
			return out
		}
	}
}

// wordCount is len(strings.Fields(s)) without building them.
func wordCount(s string) int {
	n, in := 0, false
	for _, r := range s {
		word := !unicode.IsSpace(r)
		if word && !in {
			n++
		}
		in = word
	}
	return n
}

// EmbedText is the text a fragment's vector embeds: its key and value,
// cut to MaxEmbedChars so that a long value's vector still says what it
// is about rather than averaging everything (the lexical side covers the
// whole value, chunk by chunk).
func EmbedText(key, value string) string {
	t := key + "\n" + value
	if len(t) <= MaxEmbedChars {
		return t
	}
	cut := MaxEmbedChars
	for cut > 0 && !utf8Start(t[cut]) {
		cut--
	}
	return t[:cut]
}

// MaxEmbedChars bounds EmbedText.
const MaxEmbedChars = 2000

func utf8Start(b byte) bool { return b&0xC0 != 0x80 }

// ContentModel is the model name of a vector of EmbedText made by the
// embedder named embedder. Views and events carry it, so that a vector of
// a key alone (what fragments carried before their value was embedded,
// named by the embedder alone) is never compared with one of key and
// value: a view meeting one re-embeds it, and a durable view built from
// them is rebuilt.
func ContentModel(embedder string) string { return embedder + "/key+value" }
