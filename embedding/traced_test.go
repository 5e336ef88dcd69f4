package embedding_test

import (
	"testing"

	"github.com/cmem/cmem/embedding"
	"github.com/cmem/cmem/embedding/hashing"
	"github.com/cmem/cmem/embedding/openai"
	"github.com/cmem/cmem/embedding/semantic"
)

type flooredEmbedder struct{ embedding.Embedder }

func (flooredEmbedder) RelevanceFloor() float32 { return 0.2 }

// TestDecoratorsAnswerLikeWhatTheyWrap: the relevance floor the
// application asks an embedder for is the wrapped one's.
func TestDecoratorsAnswerLikeWhatTheyWrap(t *testing.T) {
	if f := (embedding.Traced{Next: flooredEmbedder{}}).RelevanceFloor(); f != 0.2 {
		t.Errorf("floor %v, want the wrapped 0.2", f)
	}
}

// TestEmbeddersDeclareWhatTheApplicationAssumed: each embedder declares
// the floor the application found before it was declared: semantic 0.2,
// hashing 0.01, and -1 (none) for the OpenAI-compatible one, which did not
// say.
func TestEmbeddersDeclareWhatTheApplicationAssumed(t *testing.T) {
	oa, err := openai.New(openai.Config{BaseURL: "http://localhost:1", Model: "m", Dims: 8})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		e    embedding.Embedder
		want float32
	}{{semantic.Must(), 0.2}, {hashing.New(64), 0.01}, {oa, -1}} {
		if f := (embedding.Traced{Next: c.e}).RelevanceFloor(); f != c.want {
			t.Errorf("%s: floor %v, want %v", c.e.Model(), f, c.want)
		}
	}
}
