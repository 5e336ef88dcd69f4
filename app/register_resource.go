package app

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"

	"github.com/cmem/cmem/events"
)

var kindPattern = regexp.MustCompile(`^[a-z][a-z0-9_]{0,63}$`)

// Document is one document of a knowledge_base resource.
type Document struct {
	ID   string `json:"id"`
	Text string `json:"text"`
}

// RegisterResource is an admin registering a resource. config holds the
// kind-specific fields; for kind knowledge_base it must carry
// "documents": [{"id","text"}] with unique, non-empty ids.
func (a *App) RegisterResource(ctx context.Context, by Identity, id, kind, description string, config map[string]json.RawMessage) (uint64, error) {
	if err := requireAdmin(by); err != nil {
		return 0, err
	}
	if err := events.CheckID(id); err != nil {
		return 0, fmt.Errorf("%w: %w", ErrInvalid, err)
	}
	if !kindPattern.MatchString(kind) {
		return 0, fmt.Errorf("%w: kind must match %s", ErrInvalid, kindPattern)
	}
	if len(description) > maxDescription {
		return 0, fmt.Errorf("%w: description is limited to %d bytes", ErrInvalid, maxDescription)
	}
	if kind == "knowledge_base" {
		if err := checkDocuments(config["documents"]); err != nil {
			return 0, err
		}
	}
	var raw json.RawMessage
	if len(config) > 0 {
		b, err := json.Marshal(config)
		if err != nil {
			return 0, fmt.Errorf("%w: config: %w", ErrInvalid, err)
		}
		raw = b
	}
	p := &events.ResourceRegistered{ID: id, Kind: kind, Description: description, Config: raw}
	rev, err := a.append(ctx, by, p, true)
	if err != nil {
		return 0, fmt.Errorf("register resource %s: %w", id, err)
	}
	return rev, nil
}

func checkDocuments(raw json.RawMessage) error {
	if raw == nil {
		return fmt.Errorf("%w: a knowledge_base needs \"documents\": [{\"id\",\"text\"}]", ErrInvalid)
	}
	var docs []Document
	if err := json.Unmarshal(raw, &docs); err != nil {
		return fmt.Errorf("%w: documents: %w", ErrInvalid, err)
	}
	seen := make(map[string]bool, len(docs))
	for i, d := range docs {
		if d.ID == "" || d.Text == "" {
			return fmt.Errorf("%w: documents[%d] needs a non-empty id and text", ErrInvalid, i)
		}
		if seen[d.ID] {
			return fmt.Errorf("%w: documents[%d]: duplicate id %q", ErrInvalid, i, d.ID)
		}
		seen[d.ID] = true
	}
	return nil
}
