package app

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/cmem/cmem/domain"
	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/projectors/access"
)

// governAccess applies the consent, delegation and withdrawal a turn
// speaks (governance_consent_parse.go) in each scope the turn concerns,
// with the speaker's authority: a steward grant on the scope now (the
// record's owner, or a steward by the mapping) or an admin. Every decision
// — applied, or recorded and ignored with its reason — is a
// GovernanceDecided event, appended before the grant or revocation it
// causes. Bad input (no registered principal named, several, an end in the
// past or not understood) is such a recorded no-op, never an error.
func (a *App) governAccess(ctx context.Context, by domain.Identity, text string, d ScopeDecision, now access.Point) ([]GovernanceAct, error) {
	var acts []GovernanceAct
	var users []userName
	for _, s := range sentences(statements(text)) {
		if !revokeRE.MatchString(s) && !grantRE.MatchString(s) {
			continue
		}
		if users == nil {
			users = userNames(a.view.UserIDs())
		}
		c, ok := parseConsent(s, users, by.ID)
		if !ok {
			continue
		}
		for _, scope := range a.consentScopes(s, d.Scopes, c.principals, by.ID) {
			act, err := a.decideConsent(ctx, by, c, scope, now)
			if err != nil {
				return acts, err
			}
			acts = append(acts, act)
		}
	}
	return acts, nil
}

// consentScopes are the scopes a statement governs, of those the turn
// goes to: the ones the sentence names; else the speaker's own record ("you
// can handle my scheduling"); else all of them. A principal's own record is
// never what is granted to or taken from them: naming them put it there.
func (a *App) consentScopes(sentence string, turn, principals []string, speaker string) []string {
	var rest []string
	for _, s := range turn {
		if !slices.ContainsFunc(principals, func(p string) bool { return s == p || strings.HasSuffix(s, "_"+p) }) {
			rest = append(rest, s)
		}
	}
	var named []string
	for _, si := range a.scopes() {
		if slices.Contains(rest, si.id) && si.name != nil && si.name.MatchString(sentence) {
			named = append(named, si.id)
		}
	}
	if len(named) > 0 {
		return named
	}
	for _, s := range rest {
		if s == speaker || strings.HasSuffix(s, "_"+speaker) {
			return []string{s}
		}
	}
	return rest
}

// decideConsent decides one spoken access change in one scope, records the
// decision and, when it is applied, makes the grant or revocation.
func (a *App) decideConsent(ctx context.Context, by domain.Identity, c consentStatement, scope string, now access.Point) (GovernanceAct, error) {
	ev := &events.GovernanceDecided{Speaker: by.ID, Kind: c.kind, Scope: scope, Agents: []string{}}
	turnTime := a.clockNow().UTC()
	var expires *time.Time
	switch {
	case len(c.principals) == 0:
		ev.Reason = "names no registered principal: recorded, nothing changed"
	case len(c.principals) > 1:
		ev.Reason = fmt.Sprintf("names several principals (%s): ambiguous, recorded, nothing changed", strings.Join(c.principals, ", "))
	default:
		ev.Principal = c.principals[0]
	}
	if ev.Principal != "" {
		ev.Agents = consentAgents(c, scope)
	}
	if ev.Reason == "" && c.end != "" {
		end, ok := resolveEnd(c.end, turnTime)
		switch {
		case !ok:
			ev.Reason = fmt.Sprintf("the end %q is not a day cmem can resolve: recorded, nothing granted (a delegation with an end never becomes a standing one)", c.end)
		case !end.After(turnTime):
			ev.Reason = fmt.Sprintf("the end %s is not after the statement (%s): recorded, nothing granted", end.Format(time.RFC3339), turnTime.Format(time.RFC3339))
		default:
			expires = &end
			ev.ExpiresAt = expires
		}
	}
	if ev.Reason == "" && !by.Admin && !a.view.CanInvoke(by.ID, StewardAgent(scope), now) {
		ev.Reason = fmt.Sprintf("%s has no authority over %s: recorded and ignored", by.ID, scope)
	}
	if ev.Reason == "" && c.kind == consentGrant {
		if held := a.heldThrough(ev.Principal, ev.Agents[0], scope, expires, now); held != "" {
			ev.Reason = held
		}
	}
	if ev.Reason == "" {
		ev.Applied = true
		ev.Reason = appliedReason(c, ev)
	}
	act := GovernanceAct{Kind: c.kind, Scope: scope, Applied: ev.Applied, Reason: ev.Reason, Targets: []string{}}
	if ev.Principal != "" {
		act.Targets = []string{ev.Principal}
	}
	rev, err := a.append(ctx, by, ev, false)
	if err != nil {
		return act, fmt.Errorf("record governance decision: %w", err)
	}
	act.Revision = rev
	if !ev.Applied {
		return act, nil
	}
	// The speaker's authority was checked above: the change is the admin's
	// one, attributed to the speaker (the event's actor).
	as := domain.Identity{ID: by.ID, Admin: true}
	for _, ag := range ev.Agents {
		if c.kind == consentGrant {
			if err := a.ensureAgent(ctx, as, ag, scopeDescription(scope)); err != nil {
				return act, err
			}
			rev, err = a.Grant(ctx, as, Edge{UserAgent: true, From: ev.Principal, To: ag}, Term{ExpiresAt: expires})
		} else {
			if !a.projected("agents/", ag) {
				continue // a read no one was ever given (a summary agent never written through): nothing to take
			}
			rev, err = a.setGrant(ctx, as, Edge{UserAgent: true, From: ev.Principal, To: ag}, false, nil, time.Time{})
		}
		if err != nil {
			return act, err
		}
		act.Revision = max(act.Revision, rev)
	}
	return act, a.waitFor(ctx, act.Revision)
}

// consentAgents are the agents a grant gives (the scope's summary, or the
// whole scope when asked for by name) or a withdrawal takes (every read of
// the scope; a steward's authority is the mapping's, not speech's).
func consentAgents(c consentStatement, scope string) []string {
	switch {
	case c.kind == consentRevoke:
		return []string{ScopeAgent(scope), SummaryAgent(scope)}
	case c.full:
		return []string{ScopeAgent(scope)}
	default:
		return []string{SummaryAgent(scope)}
	}
}

// heldThrough says why a grant is not needed: the principal already reads
// the scope as far (the whole scope covers its summary) at least as long.
// A spoken delegation never shortens a standing grant.
func (a *App) heldThrough(principal, agent, scope string, end *time.Time, now access.Point) string {
	for _, acc := range a.view.Access(principal, now) {
		if acc.ID != agent && acc.ID != ScopeAgent(scope) {
			continue
		}
		if acc.ExpiresAt == nil || end != nil && !acc.ExpiresAt.Before(*end) {
			return fmt.Sprintf("%s already reads %s through %s at least as long: recorded, nothing changed", principal, scope, acc.ID)
		}
	}
	return ""
}

func appliedReason(c consentStatement, ev *events.GovernanceDecided) string {
	if c.kind == consentRevoke {
		return fmt.Sprintf("revoked %s's read of %s", ev.Principal, ev.Scope)
	}
	until := "until revoked"
	if ev.ExpiresAt != nil {
		until = "until " + ev.ExpiresAt.Format(time.RFC3339)
	}
	return fmt.Sprintf("granted %s %s %s", ev.Principal, strings.Join(ev.Agents, ", "), until)
}
