package app

import (
	"fmt"
	"sort"
)

// Role-based reads: an organisation's standing roles open the records of
// a kind of principal without one relationship per pair — a clinic's
// nurses and social workers read the charts of the clinic's patients, a
// school's registrar the records of its students. The schema's Roles
// map a principal's role to the role of the principals whose scope it
// opens ("nurse" → every "patient"'s record_{principal_id}) and how far;
// the import's PrincipalRoles say who holds which role. Each pair becomes
// one relationship of the synthetic type roleType(role), planned and
// granted exactly as an imported relationship is (history, expiry, the
// audit), in a fixed order so that the same import writes the same
// events. A role the schema does not list opens nothing: access only
// widens by a rule someone wrote down.

// RoleRule is how one standing role maps to grants.
type RoleRule struct {
	// Over is the role of the principals whose scope the role opens.
	Over string `json:"over"`
	// Scope is the opened scope's id, with {principal_id} replaced by the
	// id of each principal holding the Over role.
	Scope string `json:"scope"`
	// Read is full, summary or none.
	Read string `json:"read"`
	// Steward gives authority over the scope (see RelationshipRule).
	Steward bool `json:"steward,omitempty"`
}

// roleType is the relationship type a role's grants are planned as; the
// prefix keeps it apart from the schema's own types.
func roleType(role string) string { return "role:" + role }

// roleHolder is the field of a role relationship naming who gains the read.
const roleHolder = "holder_id"

// withRoles returns schema's types with one rule per role, and rels with
// one relationship per (holder, owner) pair the roles open, sorted by
// holder then owner.
func withRoles(schema RelationshipSchema, roles map[string]string, rels []Relationship) (RelationshipSchema, []Relationship, error) {
	if len(schema.Roles) == 0 {
		return schema, rels, nil
	}
	types := make(map[string]RelationshipRule, len(schema.Types)+len(schema.Roles))
	for t, r := range schema.Types {
		types[t] = r
	}
	for role, r := range schema.Roles {
		if r.Over == "" {
			return schema, nil, fmt.Errorf("schema.roles.%s: over is required", role)
		}
		types[roleType(role)] = RelationshipRule{Subject: roleHolder, Scope: r.Scope, Read: r.Read, Steward: r.Steward}
	}
	schema.Types = types
	ids := make([]string, 0, len(roles))
	for id := range roles {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	out := append([]Relationship{}, rels...)
	for _, holder := range ids {
		r, ok := schema.Roles[roles[holder]]
		if !ok {
			continue
		}
		for _, owner := range ids {
			if owner != holder && roles[owner] == r.Over {
				out = append(out, Relationship{"type": roleType(roles[holder]), roleHolder: holder, "principal_id": owner})
			}
		}
	}
	return schema, out, nil
}
