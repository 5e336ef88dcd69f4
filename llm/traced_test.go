package llm_test

import (
	"testing"

	"github.com/cmem/cmem/llm"
	"github.com/cmem/cmem/llm/offline"
	"github.com/cmem/cmem/llm/openai"
)

type sayingProvider struct {
	llm.Provider
	caps llm.Capabilities
}

func (p sayingProvider) Capabilities() llm.Capabilities { return p.caps }

// TestDecoratorsAnswerLikeWhatTheyWrap: the capabilities the application
// asks a provider for are the wrapped one's.
func TestDecoratorsAnswerLikeWhatTheyWrap(t *testing.T) {
	for _, c := range []struct{ reach, history bool }{{true, false}, {false, true}} {
		p := llm.Traced{Next: sayingProvider{caps: llm.Capabilities{ReadsReach: c.reach, ReadsHistory: c.history}}}
		if got := p.Capabilities(); got.ReadsReach != c.reach || got.ReadsHistory != c.history {
			t.Errorf("wrapping %+v: ReadsReach %v, ReadsHistory %v", c, got.ReadsReach, got.ReadsHistory)
		}
	}
}

// TestProvidersDeclareWhatTheApplicationAssumed: each provider declares
// what the application found before capabilities were declared: the
// offline one said it reads reach and no history; the OpenAI one did not
// say, and a provider that did not say read no reach and all history.
func TestProvidersDeclareWhatTheApplicationAssumed(t *testing.T) {
	off, err := offline.New(offline.Config{})
	if err != nil {
		t.Fatal(err)
	}
	if c := off.Capabilities(); !c.ReadsReach || c.ReadsHistory {
		t.Errorf("offline: %+v, want reach and no history", c)
	}
	oa, err := openai.New(openai.Config{BaseURL: "http://localhost:1", Model: "m"})
	if err != nil {
		t.Fatal(err)
	}
	if c := (llm.Traced{Next: oa}).Capabilities(); c.ReadsReach || !c.ReadsHistory {
		t.Errorf("openai: %+v; it did not say, and a provider that did not say read no reach and all history", c)
	}
}
