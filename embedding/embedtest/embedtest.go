// Package embedtest holds the contract every embedding.Embedder must satisfy,
// as one suite: Run.
package embedtest

import (
	"context"
	"errors"
	"fmt"
	"math"
	"testing"

	"github.com/cmem/cmem/embedding"
)

// Run checks e against the Embedder contract: model and dims declared,
// one unit-length vector of Dims per text in order, deterministic,
// batches of many texts equal to single calls, blank text the zero
// vector, a done context an error, and similar texts closer than
// unrelated ones.
func Run(t *testing.T, e embedding.Embedder) {
	t.Helper()
	ctx := context.Background()

	t.Run("declares model and dims", func(t *testing.T) {
		if e.Model() == "" || e.Dims() <= 0 {
			t.Fatalf("Model %q Dims %d", e.Model(), e.Dims())
		}
	})

	t.Run("unit vectors of dims, in order, deterministic", func(t *testing.T) {
		texts := []string{"solar panels on the roof", "wind turbines offshore", "battery storage for the grid"}
		a := mustEmbed(t, e, texts)
		b := mustEmbed(t, e, texts)
		for i := range texts {
			if len(a[i]) != e.Dims() {
				t.Fatalf("vector %d has %d dims, want %d", i, len(a[i]), e.Dims())
			}
			if n := norm(a[i]); math.Abs(n-1) > 1e-4 {
				t.Fatalf("vector %d has norm %v", i, n)
			}
			if !equal(a[i], b[i]) {
				t.Fatalf("vector %d differs between two calls", i)
			}
			one := mustEmbed(t, e, texts[i:i+1])[0]
			if !near(one, a[i]) {
				t.Fatalf("vector %d differs when embedded alone: order not preserved", i)
			}
		}
		if near(a[0], a[1]) {
			t.Fatal("different texts gave the same vector")
		}
	})

	t.Run("empty input and blank text", func(t *testing.T) {
		if got := mustEmbed(t, e, nil); len(got) != 0 {
			t.Fatalf("Embed(nil) gave %d vectors", len(got))
		}
		got := mustEmbed(t, e, []string{"", "grid storage", "  "})
		if norm(got[0]) != 0 || norm(got[2]) != 0 || len(got[0]) != e.Dims() {
			t.Fatal("blank text must be the zero vector of Dims")
		}
		if math.Abs(norm(got[1])-1) > 1e-4 {
			t.Fatal("non-blank text next to blanks is not a unit vector")
		}
	})

	t.Run("batch of many texts", func(t *testing.T) {
		texts := make([]string, 300)
		for i := range texts {
			texts[i] = fmt.Sprintf("report number %d about topic %d and region %d", i, i%7, i%11)
		}
		all := mustEmbed(t, e, texts)
		if len(all) != len(texts) {
			t.Fatalf("%d vectors for %d texts", len(all), len(texts))
		}
		for _, i := range []int{0, 1, 127, 128, 129, 255, 299} {
			if one := mustEmbed(t, e, texts[i:i+1])[0]; !near(one, all[i]) {
				t.Fatalf("text %d: batch vector differs from single vector", i)
			}
		}
	})

	t.Run("similar texts are closer than unrelated ones", func(t *testing.T) {
		v := mustEmbed(t, e, []string{
			"How do I reset the password of my wifi router?",
			"Steps to reset a wifi router password",
			"Best pasta recipes with tomato sauce and basil",
		})
		similar, unrelated := embedding.Cosine(v[0], v[1]), embedding.Cosine(v[0], v[2])
		if similar <= unrelated || similar < 0.3 {
			t.Fatalf("cos(similar)=%.3f, cos(unrelated)=%.3f", similar, unrelated)
		}
	})

	t.Run("done context is an error", func(t *testing.T) {
		cctx, cancel := context.WithCancel(ctx)
		cancel()
		if _, err := e.Embed(cctx, []string{"anything at all"}); !errors.Is(err, context.Canceled) {
			t.Fatalf("err = %v, want context.Canceled", err)
		}
	})
}

func mustEmbed(t *testing.T, e embedding.Embedder, texts []string) [][]float32 {
	t.Helper()
	v, err := e.Embed(context.Background(), texts)
	if err != nil {
		t.Fatalf("Embed: %v", err)
	}
	if len(v) != len(texts) {
		t.Fatalf("%d vectors for %d texts", len(v), len(texts))
	}
	return v
}

func norm(v []float32) float64 {
	var s float64
	for _, x := range v {
		s += float64(x) * float64(x)
	}
	return math.Sqrt(s)
}

func equal(a, b []float32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// near allows for float rounding differences a remote embedder may show
// between batch and single requests.
func near(a, b []float32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Abs(float64(a[i]-b[i])) > 1e-5 {
			return false
		}
	}
	return true
}
