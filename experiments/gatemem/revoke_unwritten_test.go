package gatemem

import "testing"

// A spoken revocation in the speaker's own record, whose summary agent
// nothing was ever written through, takes what exists and is no error
// (it was a 404 that stopped the turn): no grant can run through an agent
// never registered.
func TestRevocationOfAReadNeverGivenIsNoError(t *testing.T) {
	a, tok := org(t)
	ans := say(t, a, tok["omar"], "Documented: Lucia's ride access is revoked at the patient's request.")
	if len(ans.Governance) == 0 || ans.Governance[0].Kind != "revoke" {
		t.Fatalf("governance %+v, want the revocation recorded", ans.Governance)
	}
}
