package embedding

import (
	"context"
	"fmt"
	"math"
)

// Cosine returns the cosine similarity of a and b: 0 when either is the
// zero vector or their lengths differ (vectors of different models are
// not comparable, and saying so with 0 keeps ranking code simple).
func Cosine(a, b []float32) float32 {
	if len(a) != len(b) {
		return 0
	}
	var dot, na, nb float64
	for i := range a {
		dot += float64(a[i]) * float64(b[i])
		na += float64(a[i]) * float64(a[i])
		nb += float64(b[i]) * float64(b[i])
	}
	if na == 0 || nb == 0 {
		return 0
	}
	return float32(dot / math.Sqrt(na*nb))
}

// Normalize scales v to unit L2 length in place and returns it; the zero
// vector is returned unchanged.
func Normalize(v []float32) []float32 {
	acc := make([]float64, len(v))
	for i, x := range v {
		acc[i] = float64(x)
	}
	copy(v, Normalize64(acc))
	return v
}

// Normalize64 rounds acc to float32 after scaling it to unit L2 length (in
// float64); the zero vector stays zero. Embedders accumulate in float64
// so that results do not depend on summation rounding.
func Normalize64(acc []float64) []float32 {
	var norm float64
	for _, v := range acc {
		norm += v * v
	}
	out := make([]float32, len(acc))
	if norm == 0 {
		return out
	}
	norm = math.Sqrt(norm)
	for i, v := range acc {
		out[i] = float32(v / norm)
	}
	return out
}

// Each is Embed for in-process embedders: one vector per text from
// vector, in order, failing (wrapping ErrEmbed) only when ctx is done,
// which it checks every 256 texts.
func Each(ctx context.Context, texts []string, vector func(string) []float32) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i, t := range texts {
		if i%256 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, fmt.Errorf("%w: %w", ErrEmbed, err)
			}
		}
		out[i] = vector(t)
	}
	return out, nil
}
