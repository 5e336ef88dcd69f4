package app

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/cmem/cmem/domain"
	"github.com/cmem/cmem/events"
)

// ImportRequest is a relationships import: the mapping, the facts, and
// the principals that own a Self scope beside the relationships' subjects.
type ImportRequest struct {
	Schema        RelationshipSchema `json:"schema"`
	Relationships []Relationship     `json:"relationships"`
	Principals    []string           `json:"principals,omitempty"`
	// PrincipalRoles maps a principal to its standing role; the schema's
	// Roles turn them into grants (relationships_roles.go).
	PrincipalRoles map[string]string `json:"principal_roles,omitempty"`
}

// ImportRelationships is an admin importing relationship facts as grants.
// Everything is checked before anything is written: an unknown type, a
// missing field or an unregistered principal refuses the import (4xx,
// naming the relationship) and grants nothing. Scopes are registered as
// agents on first use. Importing the same facts again grants the same
// edges again (each grant is an event, as any grant).
func (a *App) ImportRelationships(ctx context.Context, by domain.Identity, req ImportRequest) (ImportAnswer, error) {
	if err := requireAdmin(by); err != nil {
		return ImportAnswer{}, err
	}
	rels := req.Relationships
	for _, p := range req.Principals { // principals without a relationship still own their record
		rels = append(rels, Relationship{"type": selfType, "principal_id": p})
	}
	schema := req.Schema
	if schema.Self != "" {
		types := map[string]RelationshipRule{selfType: {Subject: "principal_id", Scope: schema.Self, Read: ReadNone}}
		for t, r := range schema.Types {
			types[t] = r
		}
		schema.Types = types
	}
	schema, rels, err := withRoles(schema, req.PrincipalRoles, rels)
	if err != nil {
		return ImportAnswer{}, fmt.Errorf("%w: %w", domain.ErrInvalid, err)
	}
	plans, err := planRelationships(schema, rels, req.PrincipalRoles)
	if err != nil {
		return ImportAnswer{}, err
	}
	plans = withOwnVaults(plans) // a class reader reads that class of their own record (relationships_vault.go)
	for _, p := range plans {
		if err := a.requireRegistered(ctx, "users/", p.user); err != nil {
			if errors.Is(err, domain.ErrNotFound) {
				return ImportAnswer{}, fmt.Errorf("%w: relationship %d names principal %s, who is not a registered user", domain.ErrNotFound, p.index, p.user)
			}
			return ImportAnswer{}, err
		}
		if err := checkScopeID(p.scope); err != nil {
			return ImportAnswer{}, fmt.Errorf("%w: relationship %d: %w", domain.ErrInvalid, p.index, err)
		}
	}
	ans := ImportAnswer{Grants: []ImportedGrant{}}
	for _, p := range plans {
		var agents []string
		switch p.read {
		case ReadFull:
			agents = append(agents, ScopeAgent(p.scope))
		case ReadSummary:
			agents = append(agents, SummaryAgent(p.scope))
		case ReadClass:
			agents = append(agents, ClassAgent(p.scope, p.class))
		case ReadWithout:
			agents = append(agents, WithheldAgent(p.scope, p.classes))
		}
		if p.steward {
			agents = append(agents, StewardAgent(p.scope))
		}
		// Every scope has its agent, so that what is said about it has a
		// place even before anyone may read it.
		if err := a.ensureAgent(ctx, by, ScopeAgent(p.scope), scopeDescription(p.scope)); err != nil {
			return ans, err
		}
		for _, ag := range agents {
			if err := a.ensureAgent(ctx, by, ag, scopeDescription(p.scope)); err != nil {
				return ans, err
			}
			rev, err := a.Grant(ctx, by, Edge{UserAgent: true, From: p.user, To: ag}, Term{})
			if err != nil {
				return ans, err
			}
			read := p.read
			if ag == StewardAgent(p.scope) {
				read = "steward"
			}
			ans.Grants = append(ans.Grants, ImportedGrant{Index: p.index, User: p.user, Scope: p.scope, Agent: ag, Read: read, Revision: rev})
			ans.Revision = rev
		}
	}
	return ans, nil
}

// selfType is the relationship an import gives each principal to its own
// record when the schema has a Self scope.
const selfType = "self"

// ensureAgent registers id unless it exists.
func (a *App) ensureAgent(ctx context.Context, by domain.Identity, id, description string) error {
	if a.projected("agents/", id) {
		return nil
	}
	if _, err := a.RegisterAgent(ctx, by, id, description, ""); err != nil && !errors.Is(err, domain.ErrConflict) {
		return err
	}
	return nil
}

// scopeDescription is what the coordinator reads of a scope's agent: the
// words of its id.
func scopeDescription(scope string) string {
	return "memory of " + strings.NewReplacer("_", " ", "-", " ").Replace(scope)
}

// checkScopeID keeps scope agent ids within cmem's id rules (the suffixes
// included).
func checkScopeID(scope string) error {
	if scope == "" || len(scopePrefix+scope+"-summary") > 128 {
		return fmt.Errorf("scope %q must be 1–%d characters", scope, 128-len(scopePrefix+"-summary"))
	}
	if err := events.CheckID(scope); err != nil {
		return fmt.Errorf("scope %q: %w", scope, err)
	}
	return nil
}
