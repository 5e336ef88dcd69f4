package embedding_test

import (
	"context"
	"math"
	"testing"

	"github.com/cmem/cmem/embedding"
	"github.com/cmem/cmem/embedding/hashing"
)

func unit(xs ...float32) []float32 {
	var n float64
	for _, x := range xs {
		n += float64(x * x)
	}
	for i := range xs {
		xs[i] /= float32(math.Sqrt(n))
	}
	return xs
}

func TestSoftMatch(t *testing.T) {
	a, b, c := unit(1, 0, 0), unit(0, 1, 0), unit(1, 1, 0) // c is 0.707 from a and b
	q := []embedding.Term{{Vec: a, Weight: 3}, {Vec: b, Weight: 1}}
	for _, tc := range []struct {
		name string
		doc  []embedding.Term
		want float64
	}{
		{"every word found", []embedding.Term{{Vec: b}, {Vec: a}}, 1},
		{"the heavy word only", []embedding.Term{{Vec: a}}, 0.75},
		{"the light word only", []embedding.Term{{Vec: b}, {Vec: unit(0, 0, 1)}}, 0.25},
		{"a near word counts its cosine", []embedding.Term{{Vec: c}}, math.Sqrt(0.5)},
		{"an opposite word counts zero", []embedding.Term{{Vec: unit(-1, 0, 0)}}, 0},
		{"no words", nil, 0},
	} {
		if got := embedding.SoftMatch(q, tc.doc); math.Abs(got-tc.want) > 1e-6 {
			t.Errorf("%s: SoftMatch = %v, want %v", tc.name, got, tc.want)
		}
	}
	if got := embedding.SoftMatch(nil, []embedding.Term{{Vec: a}}); got != 0 {
		t.Errorf("an empty query matches %v, want 0", got)
	}
}

// termer is an embedder with word vectors.
type termer struct{ embedding.Embedder }

func (termer) Terms(string) []embedding.Term { return []embedding.Term{{Vec: []float32{1}, Weight: 1}} }

func TestTermerOfLooksThroughTracing(t *testing.T) {
	h := hashing.New(8)
	if embedding.TermerOf(h) != nil || embedding.TermerOf(embedding.Traced{Next: h}) != nil {
		t.Fatal("an embedder without word vectors must have no Termer")
	}
	w := termer{h}
	for _, e := range []embedding.Embedder{w, embedding.Traced{Next: w}, &embedding.Traced{Next: embedding.Traced{Next: w}}} {
		tm := embedding.TermerOf(e)
		if tm == nil || len(tm.Terms("x")) != 1 {
			t.Fatalf("TermerOf(%T) = %v, want the wrapped termer", e, tm)
		}
	}
	if _, err := w.Embed(context.Background(), []string{"x"}); err != nil {
		t.Fatal(err)
	}
}

func TestDistinctKeepsTheFirstOfEachWord(t *testing.T) {
	ts := []embedding.Term{{Word: "a", Weight: 1}, {Word: "b", Weight: 2}, {Word: "a", Weight: 3}}
	got := embedding.Distinct(ts)
	if len(got) != 2 || got[0].Weight != 1 || got[1].Word != "b" {
		t.Fatalf("Distinct = %+v", got)
	}
	if len(ts) != 3 || ts[2].Weight != 3 {
		t.Fatalf("Distinct changed its argument: %+v", ts)
	}
}
