package gateway_test

import (
	"encoding/json"
	"net/http"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/node"
	"github.com/cmem/cmem/node/nodetest"
	"github.com/cmem/cmem/test/console/consoletest"
)

// TestListingIsOneRead: listing queries (the console's Queries page) and
// the usage built from it append one cmem.query.listed event each, never
// one delivery per query, and the audit still sees every query shown as a
// delivery to its user.
func TestListingIsOneRead(t *testing.T) {
	n, c := nodetest.StartClient(t, nil)
	w := consoletest.Seed(t, c)
	// The seeded queries finish in the background, and each finished one
	// is delivered on the bus (workers/replier.go), which the log records:
	// count the deliveries only once both are in.
	busDelivered(t, n, w.AliceQuery, w.BobQuery)
	delivered := len(nodetest.Events(t, n, events.TypeQueryDelivered))
	listed := len(nodetest.Events(t, n, events.TypeQueriesListed))

	all := c.Must(http.StatusOK, "GET", "/v1/queries", admin, nil)
	if len(all.Body["queries"].([]any)) != 2 {
		t.Fatalf("admin's list: %s", all.Raw)
	}
	c.Must(http.StatusOK, "GET", "/v1/usage", admin, nil)
	if got := len(nodetest.Events(t, n, events.TypeQueryDelivered)); got != delivered {
		t.Fatalf("a listing appended %d delivery events", got-delivered)
	}
	recs := nodetest.Events(t, n, events.TypeQueriesListed)
	if len(recs) != listed+2 {
		t.Fatalf("two listings appended %d listing events, want 2", len(recs)-listed)
	}
	p, err := recs[len(recs)-2].Decode()
	if err != nil {
		t.Fatal(err)
	}
	l := p.(*events.QueriesListed)
	var ids []string
	for _, d := range l.Deliveries {
		ids = append(ids, d.QueryID)
	}
	if l.Reader == "" || !slices.Contains(ids, w.AliceQuery) || !slices.Contains(ids, w.BobQuery) {
		t.Fatalf("the listing event does not name the queries shown: %+v", l)
	}
	// The audit judges the listing's deliveries as deliveries of the query.
	rev := strconv.FormatUint(recs[len(recs)-1].Revision, 10)
	aud := c.Must(http.StatusOK, "GET", "/v1/audit/deliveries?query="+w.AliceQuery+"&min_revision="+rev, admin, nil)
	var rows []map[string]any
	if err := json.Unmarshal(aud.Raw, &rows); err != nil {
		t.Fatalf("audit deliveries: %v: %s", err, aud.Raw)
	}
	found := false
	for _, r := range rows {
		if r["event"] == recs[len(recs)-2].ID && r["user"] == "alice" && r["admissible"] == true {
			found = true
		}
	}
	if !found {
		t.Fatalf("the audit has no admissible delivery of %s from the listing %s: %s", w.AliceQuery, recs[len(recs)-2].ID, aud.Raw)
	}
}

// busDelivered waits, up to a deadline, until the log holds a bus delivery
// of every one of queries.
func busDelivered(t *testing.T, n *node.Node, queries ...string) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		seen := map[string]bool{}
		for _, r := range nodetest.Events(t, n, events.TypeQueryDelivered) {
			p, err := r.Decode()
			if err != nil {
				t.Fatal(err)
			}
			if d := p.(*events.QueryDelivered); d.Channel == "nats" {
				seen[d.QueryID] = true
			}
		}
		missing := 0
		for _, q := range queries {
			if !seen[q] {
				missing++
			}
		}
		if missing == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d of the seeded queries were never delivered on the bus", missing)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
