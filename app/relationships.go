package app

import (
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/cmem/cmem/domain"
)

// An organisation's relationship facts (member of project P, assigned
// clinician of patient X, delegate of E with a limited scope…) become
// grants through a declarative mapping, in the spirit of SpiceDB's schema:
// each relationship type says which principal it is about, which scope it
// opens and how far. A scope is an agent (ScopeAgent): fragments about the
// scope are written through it, so they carry it in A(m), and M(u,a,t)
// — nothing else — decides who reads them. Every grant goes through Grant,
// so history, expiry and the audit work unchanged.

// Read levels a relationship type can give.
const (
	ReadFull    = "full"    // every fragment of the scope
	ReadSummary = "summary" // a redacted summary of the scope (its summary agent)
	ReadNone    = "none"    // the relationship is known but opens nothing
	ReadClass   = "class"   // one sensitivity class of the scope (its class agent; class_read.go)
)

// RelationshipSchema maps relationship types to the scopes they open.
type RelationshipSchema struct {
	// Types maps a relationship type to its rule; a relationship of a type
	// not listed is refused.
	Types map[string]RelationshipRule `json:"types"`
	// Self, when set, is the scope every subject of the import owns: its
	// own record (e.g. "person_{principal_id}"), read in full and stewarded.
	Self string `json:"self,omitempty"`
	// Roles maps a standing role to the scopes of another role's
	// principals it opens (relationships_roles.go).
	Roles map[string]RoleRule `json:"roles,omitempty"`
}

// RelationshipRule is how one relationship type maps to a grant.
type RelationshipRule struct {
	// Subject names the field holding the principal who gains the read.
	Subject string `json:"subject"`
	// Scope is the scope's id, with {field} replaced by the relationship's
	// field (e.g. "project_{project_id}"); alternatives separated by "|"
	// are tried in order, the first whose fields the relationship has wins.
	Scope string `json:"scope"`
	// Read is full, summary or none.
	Read string `json:"read"`
	// LimitedBy names a field that, when present on a relationship, limits
	// its read to a summary (e.g. "access_scope": "scheduling_only").
	LimitedBy string `json:"limited_by,omitempty"`
	// LimitedTo maps a value of the LimitedBy field to the sensitivity
	// class the limited read is confined to ("credentials_only" →
	// "credentials"): the principal reads the scope's sentences of that
	// class alone (class_read.go) instead of a summary.
	LimitedTo map[string]string `json:"limited_to,omitempty"`
	// Steward gives the subject authority over the scope: consent,
	// delegation, revocation and deletion it speaks are applied.
	Steward bool `json:"steward,omitempty"`
	// ReadersOf names a scope (a template as Scope) whose full readers
	// also read this relationship's scope in full
	// (relationships_follow.go).
	ReadersOf string `json:"readers_of,omitempty"`
	// WithholdFor maps a subject's role to the sensitivity classes a full
	// read leaves out for it ("sales" → credentials, incident): need to
	// know inside a scope (withhold_read.go).
	WithholdFor map[string][]string `json:"withhold_for,omitempty"`
}

// Relationship is one relationship fact: its type and its fields.
type Relationship map[string]any

// ImportedGrant is one grant an import made.
type ImportedGrant struct {
	Index    int    `json:"index"` // the relationship it came from; -1 for a Self scope
	User     string `json:"user"`
	Scope    string `json:"scope"`
	Agent    string `json:"agent"`
	Read     string `json:"read"`
	Revision uint64 `json:"revision"`
}

// ImportAnswer is what an import did.
type ImportAnswer struct {
	Grants   []ImportedGrant `json:"grants"`
	Revision uint64          `json:"revision"`
}

const scopePrefix = "scope-"

// ScopeAgent is the agent that holds scope's fragments.
func ScopeAgent(scope string) string { return scopePrefix + scope }

// SummaryAgent is the agent through which a scope is read as a redacted
// summary.
func SummaryAgent(scope string) string { return scopePrefix + scope + "-summary" }

// StewardAgent is the agent whose grant marks authority over a scope.
func StewardAgent(scope string) string { return scopePrefix + scope + "-steward" }

var fieldRE = regexp.MustCompile(`\{([A-Za-z0-9_]+)\}`)

// Validate reports every problem of the schema at once.
func (s RelationshipSchema) Validate() error {
	var errs []error
	if len(s.Types) == 0 {
		errs = append(errs, errors.New("schema.types is empty"))
	}
	for t, r := range s.Types {
		if r.Subject == "" || r.Scope == "" {
			errs = append(errs, fmt.Errorf("schema.types.%s: subject and scope are required", t))
		}
		switch r.Read {
		case ReadFull, ReadSummary, ReadNone:
		default:
			errs = append(errs, fmt.Errorf("schema.types.%s: read %q is not full, summary or none", t, r.Read))
		}
		errs = append(errs, validateWithhold(t, r)...)
		for v, c := range r.LimitedTo {
			if sensitivityLexicon[c] == nil {
				errs = append(errs, fmt.Errorf("schema.types.%s.limited_to.%s: %q is not a sensitivity class", t, v, c))
			}
		}
	}
	return errors.Join(errs...)
}

// plan is one grant an import will make.
type plan struct {
	index       int
	user, scope string
	read        string
	class       string   // the sensitivity class of a ReadClass read
	classes     []string // the classes a ReadWithout read leaves out
	steward     bool
}

// planRelationships checks every relationship against the schema and
// returns the grants, or the first problem naming its index; roles are
// the principals' standing roles, which a rule's WithholdFor narrows.
func planRelationships(s RelationshipSchema, rels []Relationship, roles map[string]string) ([]plan, error) {
	if err := s.Validate(); err != nil {
		return nil, fmt.Errorf("%w: %w", domain.ErrInvalid, err)
	}
	var out []plan
	subjects := map[string]bool{}
	for i, rel := range rels {
		typ, _ := rel["type"].(string)
		rule, ok := s.Types[typ]
		if !ok {
			return nil, fmt.Errorf("%w: relationships[%d]: unknown relationship type %q", domain.ErrInvalid, i, typ)
		}
		user, ok := rel[rule.Subject].(string)
		if !ok || user == "" {
			return nil, fmt.Errorf("%w: relationships[%d]: field %q (the subject) is missing", domain.ErrInvalid, i, rule.Subject)
		}
		scope, err := fillFirst(rule.Scope, rel)
		if err != nil {
			return nil, fmt.Errorf("%w: relationships[%d]: %w", domain.ErrInvalid, i, err)
		}
		read, class := rule.Read, ""
		if v, limited := rel[rule.LimitedBy]; rule.LimitedBy != "" && limited && read == ReadFull {
			read = ReadSummary
			if c, ok := v.(string); ok && rule.LimitedTo[c] != "" {
				read, class = ReadClass, rule.LimitedTo[c]
			}
		}
		subjects[user] = true
		out = append(out, withhold(plan{index: i, user: user, scope: scope, read: read, class: class, steward: rule.Steward}, rule, roles))
	}
	if s.Self != "" {
		users := make([]string, 0, len(subjects))
		for u := range subjects {
			users = append(users, u)
		}
		sort.Strings(users)
		for _, u := range users {
			scope, err := fill(s.Self, Relationship{"principal_id": u})
			if err != nil {
				return nil, fmt.Errorf("%w: schema.self: %w", domain.ErrInvalid, err)
			}
			out = append(out, plan{index: -1, user: u, scope: scope, read: ReadFull, steward: true})
		}
	}
	return withFollowers(s, rels, out)
}

// fillFirst fills the first of the "|"-separated templates whose fields
// the relationship has ("case_{case_id}|record_{for_principal_id}").
func fillFirst(tmpls string, rel Relationship) (string, error) {
	var first error
	for _, t := range strings.Split(tmpls, "|") {
		s, err := fill(t, rel)
		if err == nil {
			return s, nil
		}
		if first == nil {
			first = err
		}
	}
	return "", first
}

// fill replaces each {field} of tmpl with rel's value.
func fill(tmpl string, rel Relationship) (string, error) {
	var missing []string
	out := fieldRE.ReplaceAllStringFunc(tmpl, func(m string) string {
		f := m[1 : len(m)-1]
		v, ok := rel[f].(string)
		if !ok || v == "" {
			missing = append(missing, f)
		}
		return v
	})
	if len(missing) > 0 {
		return "", fmt.Errorf("scope %q: field %s is missing", tmpl, strings.Join(missing, ", "))
	}
	return out, nil
}
