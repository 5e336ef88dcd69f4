package app_test

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/cmem/cmem/app"
	"github.com/cmem/cmem/domain"
	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/projectors/access"
)

// consentOrg is ava (Maple member and steward), noah and erin (no part in
// Maple), each owning their record.
func consentOrg(t *testing.T) *rig {
	t.Helper()
	r := newRig(t, nil)
	registerUsers(t, r, "ava", "noah", "erin")
	if _, err := r.app.ImportRelationships(context.Background(), admin, app.ImportRequest{Schema: officeSchema, Relationships: []app.Relationship{
		{"type": "project_member", "project_id": "maple", "principal_id": "ava"},
	}, Principals: []string{"noah", "erin"}}); err != nil {
		t.Fatal(err)
	}
	return r
}

func holds(t *testing.T, r *rig, user, agent string) (bool, *access.AgentAccess) {
	t.Helper()
	acc, err := r.app.AccessOf(context.Background(), admin, user, app.AsOf{})
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range acc.Agents {
		if a.ID == agent {
			return true, &a
		}
	}
	return false, nil
}

func decisions(t *testing.T, r *rig) []events.GovernanceDecided {
	t.Helper()
	var out []events.GovernanceDecided
	for _, e := range r.log.envelopes() {
		if e.Type != events.TypeGovernanceDecided {
			continue
		}
		var d events.GovernanceDecided
		if err := json.Unmarshal(e.Data, &d); err != nil {
			t.Fatal(err)
		}
		out = append(out, d)
	}
	return out
}

func turn(t *testing.T, r *rig, user, text string) app.TurnAnswer {
	t.Helper()
	ans, err := r.app.IngestTurn(context.Background(), domain.Identity{ID: user}, app.TurnRequest{Text: text})
	if err != nil {
		t.Fatalf("%s says %q: %v", user, text, err)
	}
	return ans
}

// A steward's spoken delegation with an end is a grant of the scope's
// summary that expires then; the decision is an event, before the grant.
// Said by someone without authority over the scope, the same words are
// recorded and ignored — this fails when the authority check is removed.
func TestSpokenDelegationNeedsAuthority(t *testing.T) {
	r := consentOrg(t)
	summary := app.SummaryAgent("project_maple")
	ans := turn(t, r, "erin", "Noah can see the Maple notes through Friday 18:00.")
	if ok, _ := holds(t, r, "noah", summary); ok {
		t.Fatalf("erin, who has no authority over Maple, gave noah its summary: %+v", ans.Governance)
	}
	if len(ans.Governance) != 1 || ans.Governance[0].Applied || !strings.Contains(ans.Governance[0].Reason, "no authority") {
		t.Errorf("erin's delegation: %+v, want one recorded, ignored act", ans.Governance)
	}
	ans = turn(t, r, "ava", "Noah can see the Maple notes through Friday 18:00.")
	ok, acc := holds(t, r, "noah", summary)
	if !ok || acc.ExpiresAt == nil {
		t.Fatalf("ava's delegation: noah holds %s %v (%+v), want it with an end", summary, ok, ans.Governance)
	}
	if acc.ExpiresAt.UTC().Hour() != 18 || acc.ExpiresAt.UTC().Weekday().String() != "Friday" {
		t.Errorf("the delegation ends %s, want a Friday at 18:00", acc.ExpiresAt)
	}
	if ok, _ := holds(t, r, "noah", app.ScopeAgent("project_maple")); ok {
		t.Error("a spoken delegation gave the whole scope, not its summary")
	}
	ds := decisions(t, r)
	if len(ds) != 2 || ds[0].Applied || ds[0].Speaker != "erin" || !ds[1].Applied || ds[1].Principal != "noah" || ds[1].ExpiresAt == nil {
		t.Errorf("decisions on the log: %+v", ds)
	}
	// The decision precedes the grant it causes.
	var order []string
	for _, e := range r.log.envelopes() {
		if e.Type == events.TypeGovernanceDecided || e.Type == events.TypeUserAgentGranted && strings.Contains(string(e.Data), summary) {
			order = append(order, e.Type)
		}
	}
	if !slices.Equal(order[len(order)-2:], []string{events.TypeGovernanceDecided, events.TypeUserAgentGranted}) {
		t.Errorf("event order %v", order)
	}
}

// A steward's spoken withdrawal revokes the principal's reads of the scope;
// the same words from someone without authority change nothing.
func TestSpokenRevocation(t *testing.T) {
	r := consentOrg(t)
	full := app.ScopeAgent("project_maple")
	if _, err := r.app.Grant(context.Background(), admin, app.Edge{UserAgent: true, From: "noah", To: full}, app.Term{}); err != nil {
		t.Fatal(err)
	}
	turn(t, r, "erin", "Noah no longer has access to Maple.")
	if ok, _ := holds(t, r, "noah", full); !ok {
		t.Fatal("erin, who has no authority over Maple, revoked noah's read")
	}
	ans := turn(t, r, "ava", "Noah no longer has access to Maple.")
	if ok, _ := holds(t, r, "noah", full); ok {
		t.Fatalf("ava's withdrawal left noah reading Maple: %+v", ans.Governance)
	}
	if len(ans.Governance) != 1 || !ans.Governance[0].Applied || ans.Governance[0].Kind != "revoke" {
		t.Errorf("acts %+v", ans.Governance)
	}
}

// Bad input is a recorded no-op, never an error: a principal who does not
// exist, an end in the past, an end cmem cannot resolve, several
// principals at once.
func TestSpokenConsentBadInput(t *testing.T) {
	r := consentOrg(t)
	for _, c := range []struct{ text, reason string }{
		{"Zed can see the Maple notes.", "names no registered principal"},
		{"Noah can see the Maple notes until 1 January 2020.", "is not after the statement"},
		{"Noah can see the Maple notes until further notice from legal.", "not a day cmem can resolve"},
		{"Noah and Erin can see the Maple notes.", "several principals"},
	} {
		ans := turn(t, r, "ava", c.text)
		if len(ans.Governance) != 1 || ans.Governance[0].Applied || !strings.Contains(ans.Governance[0].Reason, c.reason) {
			t.Errorf("%q: %+v, want a recorded no-op (%s)", c.text, ans.Governance, c.reason)
		}
	}
	for _, u := range []string{"noah", "erin"} {
		if ok, _ := holds(t, r, u, app.SummaryAgent("project_maple")); ok {
			t.Errorf("%s was granted by bad input", u)
		}
	}
	if ds := decisions(t, r); len(ds) != 4 {
		t.Errorf("%d decisions recorded, want 4", len(ds))
	}
}

// A spoken delegation never shortens a standing grant.
func TestSpokenDelegationKeepsStandingGrant(t *testing.T) {
	r := consentOrg(t)
	summary := app.SummaryAgent("project_maple")
	if _, err := r.app.Grant(context.Background(), admin, app.Edge{UserAgent: true, From: "noah", To: summary}, app.Term{}); err != nil {
		t.Fatal(err)
	}
	ans := turn(t, r, "ava", "Noah can see the Maple notes through Friday 18:00.")
	if ok, acc := holds(t, r, "noah", summary); !ok || acc.ExpiresAt != nil {
		t.Errorf("noah's standing read became %v %+v (%+v)", ok, acc, ans.Governance)
	}
}
