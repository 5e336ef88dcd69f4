package inmem

import (
	"math"
	"math/rand/v2"
	"testing"
)

// The vector kernel agrees with the portable loop on every length,
// including the tails shorter than a vector register.
func TestDotKernelMatchesGeneric(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for n := range 300 {
		a, b := make([]float32, n), make([]float32, n+3)
		for i := range a {
			a[i] = float32(rng.NormFloat64())
		}
		for i := range b {
			b[i] = float32(rng.NormFloat64())
		}
		var want float64
		for i := range a {
			want += float64(a[i]) * float64(b[i])
		}
		got, gen := float64(dot(a, b)), float64(dotGeneric(a, b))
		if math.Abs(got-want) > 1e-4*(1+math.Abs(want)) || math.Abs(gen-want) > 1e-4*(1+math.Abs(want)) {
			t.Fatalf("n=%d: dot %v, generic %v, float64 %v", n, got, gen, want)
		}
	}
}
