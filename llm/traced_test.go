package llm_test

import (
	"testing"

	"github.com/cmem/cmem/llm"
)

type sayingProvider struct {
	llm.Provider
	reach, history bool
}

func (p sayingProvider) ReadsReach() bool   { return p.reach }
func (p sayingProvider) ReadsHistory() bool { return p.history }

// TestDecoratorsAnswerLikeWhatTheyWrap: the optional questions the
// application asks a provider get the wrapped one's answer, and the
// application's default when it does not say.
func TestDecoratorsAnswerLikeWhatTheyWrap(t *testing.T) {
	for _, c := range []struct{ reach, history bool }{{true, false}, {false, true}} {
		p := llm.Traced{Next: sayingProvider{reach: c.reach, history: c.history}}
		if p.ReadsReach() != c.reach || p.ReadsHistory() != c.history {
			t.Errorf("wrapping %+v: ReadsReach %v, ReadsHistory %v", c, p.ReadsReach(), p.ReadsHistory())
		}
	}
	silent := llm.Traced{Next: struct{ llm.Provider }{}}
	if silent.ReadsReach() || !silent.ReadsHistory() {
		t.Error("a provider that does not say must read no reach and all history")
	}
}
