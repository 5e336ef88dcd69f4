// Package consoletest seeds a cmem node with a small two-user workload for
// the console's tests: grants that change over time, private and shared
// fragments, derived fragments and answered queries. Bob's private data
// carries recognisable markers so a test can assert it never reaches Alice.
package consoletest

import (
	"net/http"
	"testing"

	"github.com/cmem/cmem/node/nodetest"
)

// Markers that must never reach Alice's console or stream.
const (
	BobPrivateValue = "BOB-PRIVATE-SALARY-9999"
	BobSharedValue  = "BOB-SHARED-LEDGER-7777"
	BobAgent        = "vault-keeper"
	BobResource     = "payroll-db"
	BobQueryText    = "How much are the salaries this month?"
)

// Markers Alice must see.
const (
	AlicePrivateValue = "ALICE-PRIVATE-PASSPORT-4242"
	AliceSharedValue  = "Lyon is known for its bouchons."
	AliceQueryText    = "What food is Lyon famous for?"
)

// Workload is what Seed wrote.
type Workload struct {
	Alice, Bob string // tokens
	// BeforeRevoke is the revision just before Alice lost critic;
	// Head the revision after the last seeded event.
	BeforeRevoke, RevokeRevision uint64
	AlicePrivate, BobPrivate     string // fragment ids
	AliceShared, AliceDerived    string
	BobShared                    string
	AliceQuery, BobQuery         string // query ids
}

// Seed writes the workload through the API as the admin and the users.
func Seed(t testing.TB, c *nodetest.Client) Workload {
	t.Helper()
	admin := nodetest.AdminToken
	var w Workload
	w.Alice, w.Bob = c.User("alice", "user"), c.User("bob", "user")
	for id, desc := range map[string]string{
		"planner": "plans trips and itineraries, city food and travel",
		"critic":  "reviews restaurants",
		BobAgent:  "keeps confidential finance notes and salaries",
	} {
		c.Must(http.StatusCreated, "POST", "/v1/agents", admin, map[string]string{"id": id, "description": desc})
	}
	c.Must(http.StatusCreated, "POST", "/v1/resources", admin, map[string]any{"id": "guide", "kind": "knowledge_base",
		"description": "city guide", "documents": []map[string]string{{"id": "lyon", "text": "Lyon is known for its bouchons and quenelles."}}})
	c.Must(http.StatusCreated, "POST", "/v1/resources", admin, map[string]any{"id": BobResource, "kind": "knowledge_base",
		"description": "finance ledger", "documents": []map[string]string{{"id": "pay", "text": "Salaries are paid on the 25th; the ledger is confidential."}}})
	// Bob's grant of the planner ends by itself (in 1000 hours).
	c.Must(http.StatusOK, "PUT", "/v1/grants/user-agent/bob/planner", admin, map[string]string{"ttl": "1000h"})
	for _, g := range []string{"user-agent/alice/planner", "user-agent/alice/critic",
		"user-agent/bob/" + BobAgent, "agent-resource/planner/guide", "agent-resource/critic/guide", "agent-resource/" + BobAgent + "/" + BobResource} {
		c.Must(http.StatusOK, "PUT", "/v1/grants/"+g, admin, nil)
	}
	frag := func(tok, agent string, res []string, key, value, tier string, from ...string) string {
		r := c.Must(http.StatusCreated, "POST", "/v1/fragments", tok, map[string]any{"agent": agent, "resources": res,
			"key": key, "value": value, "tier": tier, "derived_from": from})
		return r.Body["fragments"].([]any)[0].(map[string]any)["id"].(string)
	}
	w.AlicePrivate = frag(w.Alice, "planner", nil, "alice passport", AlicePrivateValue, "private")
	w.AliceShared = frag(w.Alice, "planner", []string{"guide"}, "lyon food", AliceSharedValue, "shared")
	w.AliceDerived = frag(w.Alice, "planner", nil, "lyon dinner plan", "Book a bouchon for Friday.", "shared", w.AliceShared)
	w.BobPrivate = frag(w.Bob, BobAgent, []string{BobResource}, "bob salary", BobPrivateValue, "private")
	w.BobShared = frag(w.Bob, BobAgent, []string{BobResource}, "ledger summary", BobSharedValue, "shared")
	ask := func(tok, text string) string {
		r := c.Must(http.StatusOK, "POST", "/v1/queries", tok, map[string]any{"text": text})
		return r.Body["id"].(string)
	}
	w.AliceQuery = ask(w.Alice, AliceQueryText)
	w.BobQuery = ask(w.Bob, BobQueryText)
	r := c.Must(http.StatusOK, "DELETE", "/v1/grants/user-agent/alice/critic", admin, nil)
	w.RevokeRevision = r.Revision()
	w.BeforeRevoke = w.RevokeRevision - 1
	return w
}
