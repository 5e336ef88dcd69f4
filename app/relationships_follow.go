package app

import (
	"fmt"

	"github.com/cmem/cmem/domain"
)

// Reads that follow a record: an advisor who reads a student's record in
// full reads the cases that student is the subject of, as a clinician
// assigned to a patient reads the patient's referrals — one relationship
// implies another, as a SpiceDB arrow does (case#viewer =
// subject->record#reader). A rule's ReadersOf names the scope whose full
// readers (by the same import) also read the rule's scope in full; the
// subject keeps their own read. Only full reads follow: a summary or a
// limited reader of the record (a parent, a scheduling delegate) gains
// nothing, so access widens only along a rule someone wrote down, and only
// for principals already trusted with the whole record.

// withFollowers returns plans with one full read of each followed scope
// for every full reader of the scope it follows, in plan order; rels and
// rules are the checked relationships and their schema.
func withFollowers(s RelationshipSchema, rels []Relationship, plans []plan) ([]plan, error) {
	have := map[[2]string]bool{}
	for _, p := range plans {
		if p.read == ReadFull {
			have[[2]string{p.user, p.scope}] = true
		}
	}
	out := plans
	for i, rel := range rels {
		typ, _ := rel["type"].(string)
		rule := s.Types[typ]
		if rule.ReadersOf == "" {
			continue
		}
		from, err := fillFirst(rule.ReadersOf, rel)
		if err != nil {
			return nil, fmt.Errorf("%w: relationships[%d]: readers_of: %w", domain.ErrInvalid, i, err)
		}
		to, err := fillFirst(rule.Scope, rel)
		if err != nil {
			return nil, fmt.Errorf("%w: relationships[%d]: %w", domain.ErrInvalid, i, err)
		}
		for _, p := range plans {
			if p.scope != from || p.read != ReadFull || have[[2]string{p.user, to}] {
				continue
			}
			have[[2]string{p.user, to}] = true
			out = append(out, plan{index: i, user: p.user, scope: to, read: ReadFull})
		}
	}
	return out, nil
}
