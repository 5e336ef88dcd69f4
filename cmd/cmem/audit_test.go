package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/cmem/cmem/audit"
	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/node/nodetest"
)

// TestAuditCommands runs `cmem audit ...` against a real node holding one
// honest write and one forged read, in every output format.
func TestAuditCommands(t *testing.T) {
	n := nodetest.Start(t, nil)
	c := nodetest.NewClient(t, n)
	alice := c.User("alice", "user")
	c.User("bob", "user")
	c.Must(http.StatusCreated, "POST", "/v1/agents", nodetest.AdminToken, map[string]string{"id": "planner", "description": "d"})
	c.Must(http.StatusOK, "PUT", "/v1/grants/user-agent/alice/planner", nodetest.AdminToken, nil)
	w := c.Must(http.StatusCreated, "POST", "/v1/fragments", alice, map[string]any{"agent": "planner", "resources": []string{},
		"key": "secret", "value": "v", "tier": "private"})
	frag := w.Body["fragments"].([]any)[0].(map[string]any)["id"].(string)
	forged, err := events.New(events.Meta{Source: "intruder", Actor: "bob"}, &events.MemoryRead{User: "bob", Agent: "planner",
		Query: "q", Private: []string{}, Shared: []string{frag}, GraphRevision: w.Revision(), Policy: events.PolicyTrace{Kind: "simple", Scope: "global"}})
	if err != nil {
		t.Fatal(err)
	}
	rev, err := n.Log.Append(context.Background(), forged)
	if err != nil {
		t.Fatal(err)
	}
	run := func(args ...string) string {
		t.Helper()
		var out bytes.Buffer
		// Read at the forged read's revision: the in-process history may
		// not have applied it yet when the command runs, and -min-revision
		// makes the server wait until it has (1 would not).
		args = append(args, "-url", c.Base, "-token", nodetest.AdminToken, "-min-revision", strconv.FormatUint(rev, 10))
		if err := auditCmd(args, &out); err != nil {
			t.Fatalf("cmem audit %v: %v", args, err)
		}
		return out.String()
	}
	var rows []audit.Read
	if err := json.Unmarshal([]byte(run("violations", "-format", "json")), &rows); err != nil || len(rows) != 1 || rows[0].Revision != rev {
		t.Fatalf("violations as JSON: %+v, %v", rows, err)
	}
	records, err := csv.NewReader(strings.NewReader(run("reads", "-fragment", frag, "-format", "csv"))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(records) != 2 || records[0][0] != "revision" || records[1][2] != "bob" || records[1][7] != "false" || records[1][8] != audit.ReasonPrivate {
		t.Fatalf("reads as CSV: %q", records)
	}
	if out := run("visible", "-user", "alice", "-agent", "planner"); !strings.Contains(out, "fragment") || !strings.Contains(out, frag) {
		t.Fatalf("visible as a table:\n%s", out)
	}
	out := run("metrics", "-bin", "1h")
	for _, want := range []string{"# queries", "# per user and 1h0m0s bin", "# memory reuse: 1 cross-user reads of 1 fragments", "alice"} {
		if !strings.Contains(out, want) {
			t.Fatalf("metrics table lacks %q:\n%s", want, out)
		}
	}
	var errOut bytes.Buffer
	if err := auditCmd([]string{"violations", "-url", c.Base, "-token", alice}, &errOut); err == nil || !strings.Contains(err.Error(), "403") {
		t.Fatalf("a user's token: %v", err)
	}
	if err := auditCmd([]string{"everything"}, &errOut); err == nil {
		t.Fatal("unknown question accepted")
	}
}
