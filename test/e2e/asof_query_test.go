package e2e_test

import (
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/node/nodetest"
)

// lumenQ asks for the fact TestQueryAsOf writes in two versions.
const lumenQ = "What is the revenue of Lumen cooperative?"

// askAsOf asks lumenQ about the facts valid at asOf and returns the answer.
func askAsOf(c *nodetest.Client, token, asOf string) nodetest.Response {
	body := map[string]any{"text": lumenQ}
	if asOf != "" {
		body["as_of"] = asOf
	}
	r := c.Must(http.StatusOK, "POST", "/v1/queries", token, body)
	if r.Body["status"] != "answered" {
		c.T.Fatalf("query as of %q: %s", asOf, r.Raw)
	}
	return r
}

// A query with as_of is answered from the facts valid then, under today's
// permissions: the version of a fact current at that time, never a
// version the reader cannot read now (a superseded one written through an
// agent they may not invoke, or anything after their grant was revoked),
// and the answer, being about another time, is not remembered.
func TestQueryAsOf(t *testing.T) {
	n, c := nodetest.StartClient(t, nil)
	world(c)
	alice, bob, carol := c.User("alice", "user"), c.User("bob", "user"), c.User("carol", "user")
	for _, g := range [][2]string{{"alice", "travel"}, {"alice", "finance"}, {"bob", "travel"}, {"carol", "travel"}} {
		grantAgent(c, g[0], g[1])
	}
	write := func(agent, value, at string) string {
		r := c.Must(http.StatusCreated, "POST", "/v1/fragments", alice, map[string]any{"agent": agent, "resources": []string{},
			"key": "Lumen cooperative revenue", "value": value, "tier": "shared", "observed_at": at})
		return r.Body["fragments"].([]any)[0].(map[string]any)["id"].(string)
	}
	// The May figure through finance (bob cannot invoke it), superseded in
	// August through travel (bob can).
	old := write("finance", "Lumen cooperative revenue was zqxmay 41 million credits.", "2023-05-01")
	cur := write("travel", "Lumen cooperative revenue is zqxaug 45 million credits.", "2023-08-01")

	now := askAsOf(c, alice, "")
	june := askAsOf(c, alice, "2023-06-01")
	if a := now.Body["answer"].(string); !strings.Contains(a, "zqxaug") || strings.Contains(a, "zqxmay") {
		t.Errorf("alice now: %s", now.Raw)
	}
	if a := june.Body["answer"].(string); !strings.Contains(a, "zqxmay") || strings.Contains(a, "zqxaug") {
		t.Errorf("alice as of June: %s", june.Raw)
	}
	if june.Body["as_of"] != "2023-06-01T23:59:59.999999999Z" || now.Body["as_of"] != nil {
		t.Errorf("as_of echoed as %v and %v", june.Body["as_of"], now.Body["as_of"])
	}
	if w := june.Body["fragments_written"].([]any); len(w) != 0 {
		t.Errorf("an answer about June was remembered: %v", w)
	}

	// bob may read the August version only: as of June he is shown
	// nothing, not the May version he could never read.
	bobJune := askAsOf(c, bob, "2023-06-01")
	if strings.Contains(string(bobJune.Raw), "zqxmay") || slices.Contains(readIDs(bobJune), old) {
		t.Errorf("bob as of June was shown the version he may not read: %s", bobJune.Raw)
	}
	if bobNow := askAsOf(c, bob, ""); !strings.Contains(bobNow.Body["answer"].(string), "zqxaug") {
		t.Errorf("bob now: %s", bobNow.Raw)
	}

	// carol could read the August version until her travel grant was
	// revoked; she may invoke finance now, which reads the May version. As
	// of any time she is shown the May figure at most, never August's.
	c.Must(http.StatusOK, "DELETE", "/v1/grants/user-agent/carol/travel", admin, nil)
	grantAgent(c, "carol", "finance")
	for _, at := range []string{"", "2023-06-01", "2023-09-01"} {
		r := askAsOf(c, carol, at)
		if strings.Contains(string(r.Raw), "zqxaug") || slices.Contains(readIDs(r), cur) {
			t.Errorf("carol after her revoke, as of %q: %s", at, r.Raw)
		}
	}

	// A time that is not one is refused, and nothing is submitted.
	before := len(nodetest.Events(t, n, events.TypeQuerySubmitted))
	for _, bad := range []string{"last June", "1066-10-14", "2999-01-01"} {
		c.Must(http.StatusBadRequest, "POST", "/v1/queries", alice, map[string]any{"text": lumenQ, "as_of": bad})
	}
	if after := len(nodetest.Events(t, n, events.TypeQuerySubmitted)); after != before {
		t.Errorf("refused queries were submitted: %d events, was %d", after, before)
	}
}

// readIDs are the fragments a query's steps read.
func readIDs(r nodetest.Response) []string {
	var out []string
	for _, id := range r.Body["fragments_read"].([]any) {
		out = append(out, id.(string))
	}
	return out
}
