package embedding_test

import (
	"testing"

	"github.com/cmem/cmem/embedding"
)

type flooredEmbedder struct{ embedding.Embedder }

func (flooredEmbedder) RelevanceFloor() float32 { return 0.2 }

type plainEmbedder struct{ embedding.Embedder }

// TestDecoratorsAnswerLikeWhatTheyWrap: the optional question the
// application asks an embedder gets the wrapped one's answer, and the
// application's default when it does not say.
func TestDecoratorsAnswerLikeWhatTheyWrap(t *testing.T) {
	if f := (embedding.Traced{Next: flooredEmbedder{}}).RelevanceFloor(); f != 0.2 {
		t.Errorf("floor %v, want the wrapped 0.2", f)
	}
	if f := (embedding.Traced{Next: plainEmbedder{}}).RelevanceFloor(); f != -1 {
		t.Errorf("floor %v, want -1 (none)", f)
	}
}
