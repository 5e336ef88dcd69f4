package vectorstest

import (
	"math"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/cmem/cmem/vectors"
)

// vocabulary is the words Text draws from; their frequencies fall off as
// in natural text (Zipf), so some are in most fragments (as a speaker's
// name is in every turn) and most are rare.
var vocabulary = strings.Fields(`alice bob the a is went to lyon paris market
bread cheese museum river bridge train ticket hotel garden dog cat painting
pottery concert violin guitar hiking beach mountain camping recipe soup
adoption school library meeting birthday festival bakery revenue margin
quarter costs harbour lighthouse orchard vineyard glacier canyon tunnel`)

// zipfCDF[i] is the probability of drawing one of the first i+1 words.
var zipfCDF = func() []float64 {
	out := make([]float64, len(vocabulary))
	var sum float64
	for i := range vocabulary {
		sum += 1 / math.Pow(float64(i+1), 0.9)
		out[i] = sum
	}
	for i := range out {
		out[i] /= sum
	}
	return out
}()

// Word returns one word of the vocabulary, frequent words more often.
func (g *Gen) Word() string {
	x := g.rng.Float64()
	for i, c := range zipfCDF {
		if x <= c {
			return vocabulary[i]
		}
	}
	return vocabulary[len(vocabulary)-1]
}

// Text returns n words.
func (g *Gen) Text(n int) string {
	words := make([]string, n)
	for i := range words {
		words[i] = g.Word()
	}
	return strings.Join(words, " ")
}

// WithText gives each fragment a random key of 1–3 words and value of
// 1–40 words, for the lexical side of hybrid search.
func (g *Gen) WithText(fs []vectors.Fragment) {
	for i := range fs {
		fs[i].Key = g.Text(1 + g.rng.IntN(3))
		fs[i].Value = g.Text(1 + g.rng.IntN(40))
	}
}

// benchWords is the vocabulary of BenchText: synthetic words whose
// frequencies follow Zipf's law, as a natural vocabulary's do.
const benchWords = 20000

// BenchText returns n words of a large Zipf-distributed vocabulary ("w0"
// the most frequent), for benchmarks of the lexical side at scale.
func (g *Gen) BenchText(n int) string {
	if g.zipf == nil {
		g.zipf = rand.NewZipf(g.rng, 1.07, 1, benchWords-1)
	}
	words := make([]string, n)
	for i := range words {
		words[i] = "w" + strconv.FormatUint(g.zipf.Uint64(), 36)
	}
	return strings.Join(words, " ")
}

// WithBenchText gives each fragment a key of 2–4 and a value of 5–40
// BenchText words.
func (g *Gen) WithBenchText(fs []vectors.Fragment) {
	for i := range fs {
		fs[i].Key = g.BenchText(2 + g.rng.IntN(3))
		fs[i].Value = g.BenchText(5 + g.rng.IntN(36))
	}
}
