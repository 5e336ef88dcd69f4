package app_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/cmem/cmem/app"
	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/llm"
)

// scriptedAnswer calls the first tool it is offered and replies reply,
// whatever the tool said: a provider that failed to answer, or answered.
type scriptedAnswer struct {
	llm.Provider
	reply string
}

func (s *scriptedAnswer) Answer(ctx context.Context, req llm.AnswerRequest) (llm.AnswerResult, error) {
	var calls []llm.ToolCall
	if len(req.Tools) > 0 {
		args := json.RawMessage(`{"expression":"1+1"}`)
		res, err := req.Call(ctx, req.Tools[0].Name, args)
		calls = append(calls, llm.ToolCall{Tool: req.Tools[0].Name, Arguments: args, Result: res, Err: err})
	}
	return llm.AnswerResult{Response: s.reply, Calls: calls}, nil
}

// TestReplyThatSaysNothingIsNotRemembered: a turn that called a resource
// writes its response to memory only when the response says something;
// no-information replies, errors, refusals and provider failures are
// written to no tier.
func TestReplyThatSaysNothingIsNotRemembered(t *testing.T) {
	for _, c := range []struct {
		reply    string
		remember bool
	}{
		{"The answer is 2.", true},
		{"Lyon is known for its bouchons.", true},
		{`No information about "Tell me the silicon layout of the A7" was found in memory or in the available tools.`, false},
		{"None of your agents has information relevant to this question (considered: x).", false},
		{"Error: the calculator returned 500.", false},
		{"I'm sorry, I cannot answer that.", false},
		{"I don't know.", false},
		{"The provider is unavailable.", false},
		{"   ", false},
	} {
		spy := &scriptedAnswer{Provider: newOffline(t), reply: c.reply}
		r := newRig(t, spy)
		world(t, r)
		p := r.pipeline(t, app.PipelineConfig{})
		sel := events.AgentSelected{QueryID: "q", User: "alice", Round: 1, Agent: "x", Subquery: "what is 1+1", Offered: []string{"x", "y"},
			Label: &events.Label{Agents: []string{}, Resources: []string{}}}
		if err := p.RunAgentTurn(context.Background(), app.AgentTurnCmd{Selected: sel, Revision: r.selected(t, sel)}); err != nil {
			t.Fatal(err)
		}
		q, _ := r.queries.Get("q")
		if len(q.Steps) != 1 || !q.Steps[0].Responded || len(q.Steps[0].Resources) == 0 {
			t.Fatalf("%q: the turn did not respond through a resource: %+v", c.reply, q.Steps)
		}
		if got := len(q.Steps[0].Written) > 0; got != c.remember {
			t.Errorf("%q: written to memory %v (fragments %v), want %v", c.reply, got, q.Steps[0].Written, c.remember)
		}
		if !c.remember {
			for _, e := range r.log.envelopes() {
				if e.Type == events.TypeFragmentWritten {
					t.Errorf("%q: a fragment was written (%s)", c.reply, e.Subject)
				}
			}
		}
	}
}
