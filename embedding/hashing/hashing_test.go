package hashing_test

import (
	"context"
	"hash/fnv"
	"math"
	"slices"
	"testing"

	"github.com/cmem/cmem/embedding"
	"github.com/cmem/cmem/embedding/embedtest"
	"github.com/cmem/cmem/embedding/hashing"
)

func TestHashingContract(t *testing.T) {
	embedtest.Run(t, hashing.New(0))
	embedtest.Run(t, hashing.New(64))
}

func TestHashingModelAndDims(t *testing.T) {
	tests := []struct {
		dims      int
		wantDims  int
		wantModel string
	}{
		{0, 256, "hash-v1-256"},
		{-3, 256, "hash-v1-256"},
		{1024, 1024, "hash-v1-1024"},
	}
	for _, tc := range tests {
		h := hashing.New(tc.dims)
		if h.Dims() != tc.wantDims || h.Model() != tc.wantModel {
			t.Errorf("NewHashing(%d): %s/%d, want %s/%d", tc.dims, h.Model(), h.Dims(), tc.wantModel, tc.wantDims)
		}
	}
}

func TestTokenize(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"The Games' SCORES were close!", []string{"game", "score", "close"}},
		{"A b c 42 x7 Ünïcödé straße", []string{"42", "x7", "ünïcödé", "straße"}},
		{"companies analysis status class news", []string{"company", "analysis", "status", "class", "new"}},
		{"what is it? who, why, how...", nil},
		{"", nil},
	}
	for _, tc := range tests {
		if got := embedding.Tokenize(tc.in); !slices.Equal(got, tc.want) {
			t.Errorf("Tokenize(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestFNVMatchesStdlib(t *testing.T) {
	for _, s := range []string{"", "a", "market share", "ünïcödé"} {
		h := fnv.New64a()
		_, _ = h.Write([]byte(s))
		if got := hashing.FNV1a64(s); got != h.Sum64() {
			t.Errorf("fnv1a64(%q) = %x, want %x", s, got, h.Sum64())
		}
	}
}

// One token: exactly one component, ±1, at FNV-1a(token) mod dims, with
// the sign of bit 63. This pins the documented construction.
func TestHashingSingleFeature(t *testing.T) {
	h := hashing.New(256)
	v := h.Vector("Revenue")
	sum := hashing.FNV1a64("revenue")
	want := float32(1)
	if sum>>63 == 1 {
		want = -1
	}
	for i, x := range v {
		switch {
		case uint64(i) == sum%256 && x != want:
			t.Fatalf("component %d = %v, want %v", i, x, want)
		case uint64(i) != sum%256 && x != 0:
			t.Fatalf("component %d = %v, want 0", i, x)
		}
	}
}

// Two distinct tokens: unigram weights 1 and one bigram of weight 0.5;
// a repeated token weighs 1+ln 2. Checked through squared norms before
// normalisation, recovered from the dot products with one-token vectors.
func TestHashingWeights(t *testing.T) {
	h := hashing.New(4096) // wide, so the three features do not collide
	a, b := h.Vector("alpha"), h.Vector("bravo")
	ab := h.Vector("alpha bravo")
	// |raw|² = 1 + 1 + 0.25, so each unigram's share is 1/sqrt(2.25).
	want := 1 / math.Sqrt(2.25)
	if got := math.Abs(float64(embedding.Cosine(ab, a))); math.Abs(got-want) > 1e-6 {
		t.Fatalf("cos(alpha bravo, alpha) = %v, want %v", got, want)
	}
	if got := math.Abs(float64(embedding.Cosine(ab, b))); math.Abs(got-want) > 1e-6 {
		t.Fatalf("cos(alpha bravo, bravo) = %v, want %v", got, want)
	}
	// "alpha alpha bravo": alpha 1+ln2, bravo 1, bigrams "alpha alpha" and
	// "alpha bravo" 0.5 each.
	aab := h.Vector("alpha alpha bravo")
	wa := 1 + math.Ln2
	want = wa / math.Sqrt(wa*wa+1+0.25+0.25)
	if got := math.Abs(float64(embedding.Cosine(aab, a))); math.Abs(got-want) > 1e-6 {
		t.Fatalf("cos(alpha alpha bravo, alpha) = %v, want %v", got, want)
	}
}

func TestHashingZeroVector(t *testing.T) {
	h := hashing.New(0)
	for _, s := range []string{"", "   ", "the of and", "!!! ??"} {
		v := h.Vector(s)
		for _, x := range v {
			if x != 0 {
				t.Fatalf("Vector(%q) is not zero", s)
			}
		}
		if c := embedding.Cosine(v, h.Vector("revenue")); c != 0 {
			t.Fatalf("cosine with zero vector = %v", c)
		}
	}
}

func TestCosineAndNormalize(t *testing.T) {
	if c := embedding.Cosine([]float32{1, 0}, []float32{1, 0, 0}); c != 0 {
		t.Fatalf("length mismatch cosine = %v, want 0", c)
	}
	if c := embedding.Cosine([]float32{3, 4}, []float32{6, 8}); math.Abs(float64(c)-1) > 1e-6 {
		t.Fatalf("parallel cosine = %v", c)
	}
	v := embedding.Normalize([]float32{3, 4})
	if math.Abs(float64(v[0])-0.6) > 1e-6 || math.Abs(float64(v[1])-0.8) > 1e-6 {
		t.Fatalf("Normalize = %v", v)
	}
	z := embedding.Normalize([]float32{0, 0})
	if z[0] != 0 || z[1] != 0 {
		t.Fatalf("Normalize(zero) = %v", z)
	}
}

func TestHashingRanksRelatedTexts(t *testing.T) {
	h := hashing.New(0)
	q := h.Vector("latest football match scores")
	sports := h.Vector("Specialist in sports news: games, match scores, athletes and football tournaments.")
	finance := h.Vector("Performs financial modeling and cost projections.")
	if embedding.Cosine(q, sports) <= embedding.Cosine(q, finance) {
		t.Fatalf("sports %.3f <= finance %.3f", embedding.Cosine(q, sports), embedding.Cosine(q, finance))
	}
}

func TestHashingDoneContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := hashing.New(0).Embed(ctx, []string{"x"}); err == nil {
		t.Fatal("Embed with a done context succeeded")
	}
}
