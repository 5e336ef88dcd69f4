package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/node/nodetest"
	"github.com/cmem/cmem/projectors/audit"
)

// TestAuditCommands runs `cmem audit ...` against a real node holding one
// honest write and one forged read, in every output format.
func TestAuditCommands(t *testing.T) {
	n, c := nodetest.StartClient(t, nil)
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

// TestAuditFindsForgedAnswer: a real query leaves an honest delivery that
// neither the API nor the CLI reports; an answer forged onto the log for
// bob, labelled with the finance agent and its ledger (which bob cannot
// reach), is reported by both as a delivery violation naming the agent.
func TestAuditFindsForgedAnswer(t *testing.T) {
	n, c := nodetest.StartClient(t, nil)
	alice := c.User("alice", "user")
	c.User("bob", "user")
	c.Must(http.StatusCreated, "POST", "/v1/agents", nodetest.AdminToken, map[string]string{"id": "travel", "description": "travel, cities, food"})
	c.Must(http.StatusCreated, "POST", "/v1/agents", nodetest.AdminToken, map[string]string{"id": "finance", "description": "budgets and prices"})
	c.Must(http.StatusCreated, "POST", "/v1/resources", nodetest.AdminToken, map[string]any{"id": "guide", "kind": "knowledge_base",
		"description": "city guide about food", "documents": []map[string]string{{"id": "lyon", "text": "Lyon is famous for its bouchons."}}})
	c.Must(http.StatusCreated, "POST", "/v1/resources", nodetest.AdminToken, map[string]any{"id": "ledger", "kind": "knowledge_base",
		"description": "company budgets", "documents": []map[string]string{{"id": "q3", "text": "The Q3 budget is 40000 euros."}}})
	for _, g := range []string{"agent-resource/travel/guide", "agent-resource/finance/ledger", "user-agent/alice/travel",
		"user-agent/alice/finance", "user-agent/bob/travel"} {
		c.Must(http.StatusOK, "PUT", "/v1/grants/"+g, nodetest.AdminToken, nil)
	}
	asked := c.Must(http.StatusOK, "POST", "/v1/queries", alice, map[string]any{"text": "What food is Lyon famous for?"})
	honest, _ := asked.Body["id"].(string)
	if asked.Body["status"] != "answered" || honest == "" {
		t.Fatalf("alice's query: %s", asked.Raw)
	}
	head, err := n.Log.Head(context.Background(), "")
	if err != nil {
		t.Fatal(err)
	}
	forged, err := events.New(events.Meta{Source: "intruder", Actor: "bob"}, &events.QueryDelivered{QueryID: "q-forged", User: "bob",
		Channel: "http", Status: "answered", GraphRevision: head,
		Label: events.Label{Agents: []string{"finance", "travel"}, Resources: []string{"guide", "ledger"}}})
	if err != nil {
		t.Fatal(err)
	}
	rev, err := n.Log.Append(context.Background(), forged)
	if err != nil {
		t.Fatal(err)
	}
	wait := fmt.Sprintf("min_revision=%d", rev)
	var rows []audit.Read
	api := c.Must(http.StatusOK, "GET", "/v1/audit/violations?"+wait, nodetest.AdminToken, nil)
	if err := json.Unmarshal(api.Raw, &rows); err != nil || len(rows) != 1 {
		t.Fatalf("violations: %s, %v", api.Raw, err)
	}
	if v := rows[0]; v.Kind != audit.KindDelivery || v.Query != "q-forged" || v.User != "bob" || v.Revision != rev ||
		v.Reason != audit.ReasonLabel || v.Detail != "agent finance is not available to bob" || v.Fragment != "" {
		t.Fatalf("the forged answer reported as %s", api.Raw)
	}
	var delivered []audit.Read
	d := c.Must(http.StatusOK, "GET", "/v1/audit/deliveries?query="+honest+"&"+wait, nodetest.AdminToken, nil)
	if err := json.Unmarshal(d.Raw, &delivered); err != nil || len(delivered) == 0 {
		t.Fatalf("deliveries of alice's query: %s, %v", d.Raw, err)
	}
	for _, x := range delivered {
		if !x.Admissible || x.User != "alice" || x.Label == nil || len(x.Label.Agents) == 0 {
			t.Fatalf("alice's honest delivery judged %+v", x)
		}
	}
	c.Must(http.StatusBadRequest, "GET", "/v1/audit/deliveries?query=no%20such", nodetest.AdminToken, nil)
	c.Must(http.StatusForbidden, "GET", "/v1/audit/deliveries?query="+honest, alice, nil)

	run := func(args ...string) [][]string {
		t.Helper()
		var out bytes.Buffer
		args = append(args, "-url", c.Base, "-token", nodetest.AdminToken, "-min-revision", fmt.Sprint(rev), "-format", "csv")
		if err := auditCmd(args, &out); err != nil {
			t.Fatalf("cmem audit %v: %v", args, err)
		}
		records, err := csv.NewReader(&out).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		return records
	}
	// revision at user agent fragment tier graph_revision admissible reason kind query label detail
	if r := run("violations"); len(r) != 2 || r[1][2] != "bob" || r[1][7] != "false" || r[1][8] != audit.ReasonLabel ||
		r[1][9] != audit.KindDelivery || r[1][10] != "q-forged" || r[1][11] != "agents=finance,travel resources=guide,ledger" {
		t.Fatalf("cmem audit violations: %q", r)
	}
	if r := run("deliveries", "-query", honest); len(r) < 2 || r[1][2] != "alice" || r[1][7] != "true" || r[1][9] != audit.KindDelivery {
		t.Fatalf("cmem audit deliveries: %q", r)
	}
}
