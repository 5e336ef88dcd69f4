package app

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/cmem/cmem/domain"
	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/projectors/access"
	"github.com/cmem/cmem/vectors"
)

// GovernanceAct is one governance statement a turn carried and what came
// of it: applied with the speaker's authority, or recorded and ignored.
type GovernanceAct struct {
	Kind     string   `json:"kind"` // erase, grant, revoke
	Scope    string   `json:"scope"`
	Applied  bool     `json:"applied"`
	Reason   string   `json:"reason"`
	Targets  []string `json:"targets,omitempty"` // fragments erased, or the principal granted/revoked
	Revision uint64   `json:"revision,omitempty"`
}

// governTurn applies the governance text speaks and returns what is to be
// stored of the turn itself: its text less every value erased from the
// scopes it goes to.
func (a *App) governTurn(ctx context.Context, by domain.Identity, text string, d ScopeDecision, now access.Point) ([]GovernanceAct, string, error) {
	acts := []GovernanceAct{}
	stored := text
	if asksErasure(text) {
		var targets []string
		scopes := a.scopes()
		prev := ""
		for _, s := range sentences(text) {
			if eraseRE.MatchString(s) {
				got := erasureTargets(s, scopes)
				if len(got) == 0 && prev != "" {
					// "X is retired. Do not revive it.": a request naming
					// nothing refers to what the sentence before names.
					got = erasureTargets(prev, scopes)
				}
				if len(got) == 0 {
					// Naming no value: what the request describes.
					desc, err := a.describedTargets(ctx, by, s, d.Scopes, now)
					if err != nil {
						return acts, text, err
					}
					got = withoutScopeNames(desc, scopes) // a scope's own name is never a target
				}
				targets = append(targets, withoutKept(s, got)...) // governance_erase_kept.go
			}
			prev = s
		}
		got, err := a.eraseSpoken(ctx, by, targets, d.Scopes, now)
		if err != nil {
			return acts, text, err
		}
		acts = append(acts, got...)
		for _, act := range got {
			if act.Applied {
				for _, t := range targets {
					stored = replaceFold(stored, t, "[erased]")
				}
			}
		}
	}
	more, err := a.governAccess(ctx, by, text, d, now) // consent, delegation, withdrawal (governance_consent.go)
	if err != nil {
		return acts, text, err
	}
	acts = append(acts, more...)
	// Every erasure, this turn's and other gateways', is in the registry
	// before the turn is checked against it.
	if err := a.fence(ctx, events.ErasedSubjectPrefix, 0); err != nil {
		return acts, text, err
	}
	if red, n := a.redactErased(d.Scopes, stored); n > 0 {
		stored = red
	}
	return acts, stored, nil
}

// eraseSpoken erases, in every scope the speaker has authority over (a
// steward grant now), the fragments holding one of targets, and remembers
// the targets' hashes there; the scopes holding them where the speaker has
// none are recorded as ignored.
func (a *App) eraseSpoken(ctx context.Context, by domain.Identity, targets, turnScopes []string, now access.Point) ([]GovernanceAct, error) {
	if len(targets) == 0 {
		return []GovernanceAct{{Kind: "erase", Scope: strings.Join(turnScopes, ","), Reason: "a deletion request that names nothing to erase: recorded, nothing erased"}}, nil
	}
	hits, err := a.fragmentsHolding(ctx, targets)
	if err != nil {
		return nil, err
	}
	byScope := map[string][]string{}
	for id, scopes := range hits {
		for _, s := range scopes {
			byScope[s] = append(byScope[s], id)
		}
	}
	for _, s := range turnScopes { // the turn's scopes hear the request even when nothing there holds the values yet
		if _, ok := byScope[s]; !ok {
			byScope[s] = nil
		}
	}
	names := make([]string, 0, len(byScope))
	for s := range byScope {
		names = append(names, s)
	}
	sort.Strings(names)
	var acts []GovernanceAct
	done := map[string]bool{}
	for _, s := range names {
		act := GovernanceAct{Kind: "erase", Scope: s}
		if !a.view.CanInvoke(by.ID, StewardAgent(s), now) {
			// Without authority over the scope a speaker still takes back
			// what they said themselves there — what anyone may do by id
			// (DeleteFragment) — and nothing else (governance_own.go).
			own, err := a.eraseOwn(ctx, by, byScope[s], done)
			if err != nil {
				return acts, err
			}
			act.Reason = fmt.Sprintf("%s has no authority over %s: recorded and ignored", by.ID, s)
			if len(own.Targets) > 0 {
				act = own
				act.Scope = s
			}
			acts = append(acts, act)
			continue
		}
		act.Applied, act.Targets = true, []string{}
		for _, id := range byScope[s] {
			if done[id] {
				continue
			}
			// The speaker's authority was checked above; the erasure is the
			// owner's-or-admin's one, attributed to the speaker.
			rev, err := a.DeleteFragment(ctx, domain.Identity{ID: by.ID, Admin: true}, id)
			if err != nil && !isNotFound(err) { // erased already (derived from another): a no-op
				return acts, err
			}
			done[id] = true
			act.Targets = append(act.Targets, id)
			act.Revision = max(act.Revision, rev)
		}
		rev, err := a.recordErased(ctx, by, s, targets)
		if err != nil {
			return acts, err
		}
		act.Revision = max(act.Revision, rev)
		act.Reason = fmt.Sprintf("erased %d fragment(s) naming %d value(s)", len(act.Targets), len(targets))
		acts = append(acts, act)
	}
	return acts, nil
}

// fragmentsHolding returns the fragments whose text holds one of targets,
// with the scopes of their provenance. It reads every fragment: a deletion
// request is rare and must find everything.
func (a *App) fragmentsHolding(ctx context.Context, targets []string) (map[string][]string, error) {
	res := map[string][]string{}
	err := a.everyFragment(ctx, func(f vectors.Fragment) {
		text := normalize(f.Key + " " + f.Value)
		hit := false
		for _, t := range targets {
			if strings.Contains(text, normalize(t)) {
				hit = true
				break
			}
		}
		if !hit {
			return
		}
		for _, ag := range f.Agents {
			if s, ok := strings.CutPrefix(ag, scopePrefix); ok {
				// A summary or a class read is governed by its scope's
				// stewards (summary_write.go, class_read.go).
				base, _ := scopeBase(s)
				res[f.ID] = append(res[f.ID], base)
			}
		}
	})
	if err != nil {
		return nil, err
	}
	return res, nil
}

// replaceFold replaces every case-insensitive occurrence of old in s.
func replaceFold(s, old, repl string) string {
	if old == "" {
		return s
	}
	return regexp.MustCompile(`(?i)`+regexp.QuoteMeta(old)).ReplaceAllLiteralString(s, repl)
}

func isNotFound(err error) bool { return errors.Is(err, domain.ErrNotFound) }
