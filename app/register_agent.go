package app

import (
	"context"
	"fmt"

	"github.com/cmem/cmem/domain"
	"github.com/cmem/cmem/events"
)

// RegisterAgent is an admin registering an agent with its specialization
// (description) and system prompt.
func (a *App) RegisterAgent(ctx context.Context, by domain.Identity, id, description, systemPrompt string) (uint64, error) {
	if err := requireAdmin(by); err != nil {
		return 0, err
	}
	if err := events.CheckID(id); err != nil {
		return 0, fmt.Errorf("%w: %w", domain.ErrInvalid, err)
	}
	if len(description) > maxDescription || len(systemPrompt) > maxSystemPrompt {
		return 0, fmt.Errorf("%w: description is limited to %d bytes, system_prompt to %d", domain.ErrInvalid, maxDescription, maxSystemPrompt)
	}
	rev, err := a.append(ctx, by, &events.AgentRegistered{ID: id, Description: description, SystemPrompt: systemPrompt}, true)
	if err != nil {
		return 0, fmt.Errorf("register agent %s: %w", id, err)
	}
	return rev, nil
}
