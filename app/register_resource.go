package app

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/cmem/cmem/domain"
	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/resources"
)

// maxToolName is OpenAI's limit on function names, whose character set
// (A-Z a-z 0-9 _ -) ids already match.
const maxToolName = 64

// RegisterResource is an admin registering a resource. config holds the
// kind-specific fields; the resource is built once here so that a
// configuration that could never be called is refused at registration
// (kinds and fields: package resources).
func (a *App) RegisterResource(ctx context.Context, by domain.Identity, id, kind, description string, config map[string]json.RawMessage) (uint64, error) {
	if err := requireAdmin(by); err != nil {
		return 0, err
	}
	if err := events.CheckID(id); err != nil {
		return 0, fmt.Errorf("%w: %w", domain.ErrInvalid, err)
	}
	if len(id) > maxToolName {
		return 0, fmt.Errorf("%w: a resource id is at most %d characters: it is offered to models as a function name", domain.ErrInvalid, maxToolName)
	}
	if len(description) > maxDescription {
		return 0, fmt.Errorf("%w: description is limited to %d bytes", domain.ErrInvalid, maxDescription)
	}
	var raw json.RawMessage
	if len(config) > 0 {
		b, err := json.Marshal(config)
		if err != nil {
			return 0, fmt.Errorf("%w: config: %w", domain.ErrInvalid, err)
		}
		raw = b
	}
	if _, err := resources.Build(id, kind, description, raw, a.cfg.Resources); err != nil {
		return 0, fmt.Errorf("%w: %w", domain.ErrInvalid, err)
	}
	// Secrets are passed by reference (the log keeps the reference, never
	// the value); each must resolve on this server now.
	if err := resources.CheckSecrets(kind, raw, a.cfg.Resources); err != nil {
		return 0, fmt.Errorf("%w: %w", domain.ErrInvalid, err)
	}
	p := &events.ResourceRegistered{ID: id, Kind: kind, Description: description, Config: raw}
	rev, err := a.append(ctx, by, p, true)
	if err != nil {
		return 0, fmt.Errorf("register resource %s: %w", id, err)
	}
	return rev, nil
}
