package openai

import (
	"context"
	"fmt"
	"strings"

	"github.com/cmem/cmem/llm"
)

// factPrompt is mem0's memory-update decision, reduced to whether the new
// memory replaces the existing one.
const factPrompt = `You maintain a memory of facts. Compare a new memory with an existing one and decide: ` +
	`ADD if the new memory is about a different subject or attribute; UPDATE if it gives a newer or different value ` +
	`of the same subject and attribute; DELETE if it says the existing one no longer holds; NONE if it says the same. ` +
	`Reply with JSON only: {"decision": "ADD" | "UPDATE" | "DELETE" | "NONE"}.`

// SameFact implements llm.FactJudge: UPDATE, DELETE and NONE mean the new
// memory supersedes the existing one; ADD that it does not. Any other
// reply is an error wrapping llm.ErrProvider.
func (p *Provider) SameFact(ctx context.Context, existing, candidate llm.KeyValue) (bool, error) {
	userText := fmt.Sprintf("Existing memory:\nKey: %s\nValue: %s\n\nNew memory:\nKey: %s\nValue: %s",
		strings.TrimSpace(existing.Key), strings.TrimSpace(existing.Value), strings.TrimSpace(candidate.Key), strings.TrimSpace(candidate.Value))
	var reply struct {
		Decision string `json:"decision"`
	}
	if err := p.chatJSON(ctx, factPrompt, userText, &reply); err != nil {
		return false, err
	}
	switch strings.ToUpper(strings.TrimSpace(reply.Decision)) {
	case "UPDATE", "DELETE", "NONE":
		return true, nil
	case "ADD":
		return false, nil
	}
	return false, fmt.Errorf("%w: the fact judge answered %q, want ADD, UPDATE, DELETE or NONE", llm.ErrProvider, reply.Decision)
}
