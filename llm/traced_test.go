package tracing_test

import (
	"testing"

	"github.com/cmem/cmem/embedding"
	"github.com/cmem/cmem/internal/tracing"
	"github.com/cmem/cmem/llm"
)

type sayingProvider struct {
	llm.Provider
	reach, history bool
}

func (p sayingProvider) ReadsReach() bool   { return p.reach }
func (p sayingProvider) ReadsHistory() bool { return p.history }

type flooredEmbedder struct{ embedding.Embedder }

func (flooredEmbedder) RelevanceFloor() float32 { return 0.2 }

type plainEmbedder struct{ embedding.Embedder }

// TestDecoratorsAnswerLikeWhatTheyWrap: the optional questions the
// application asks a provider or an embedder get the wrapped one's answer,
// and the application's default when it does not say.
func TestDecoratorsAnswerLikeWhatTheyWrap(t *testing.T) {
	for _, c := range []struct{ reach, history bool }{{true, false}, {false, true}} {
		p := tracing.Provider{Next: sayingProvider{reach: c.reach, history: c.history}}
		if p.ReadsReach() != c.reach || p.ReadsHistory() != c.history {
			t.Errorf("wrapping %+v: ReadsReach %v, ReadsHistory %v", c, p.ReadsReach(), p.ReadsHistory())
		}
	}
	silent := tracing.Provider{Next: struct{ llm.Provider }{}}
	if silent.ReadsReach() || !silent.ReadsHistory() {
		t.Error("a provider that does not say must read no reach and all history")
	}
	if f := (tracing.Embedder{Next: flooredEmbedder{}}).RelevanceFloor(); f != 0.2 {
		t.Errorf("floor %v, want the wrapped 0.2", f)
	}
	if f := (tracing.Embedder{Next: plainEmbedder{}}).RelevanceFloor(); f != -1 {
		t.Errorf("floor %v, want -1 (none)", f)
	}
}
