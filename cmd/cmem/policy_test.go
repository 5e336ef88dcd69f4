package main

import (
	"bytes"
	"net/http"
	"strings"
	"testing"

	"github.com/cmem/cmem/node/nodetest"
)

func TestPolicyCommands(t *testing.T) {
	_, c := nodetest.StartClient(t, nil)
	c.Must(http.StatusCreated, "POST", "/v1/agents", nodetest.AdminToken, map[string]string{"id": "planner", "description": "d"})
	run := func(args ...string) (string, error) {
		var out bytes.Buffer
		err := policyCmd(append(args, "-url", c.Base, "-token", nodetest.AdminToken), &out)
		return out.String(), err
	}
	if _, err := run("set", "-target", "write_shared", "-kind", "redact", "-config", `{"emails":true}`); err != nil {
		t.Fatal(err)
	}
	if _, err := run("set", "-target", "read", "-agent", "planner", "-kind", "filter", "-config", `{"keywords":["lyon"]}`); err != nil {
		t.Fatal(err)
	}
	if _, err := run("set", "-target", "write_shared", "-kind", "block"); err == nil || !strings.Contains(err.Error(), "at least one pattern") {
		t.Fatalf("an invalid policy must fail with the API's reason: %v", err)
	}
	if _, err := run("set", "-target", "read", "-user", "ghost", "-kind", "simple"); err == nil || !strings.Contains(err.Error(), "404") {
		t.Fatalf("an unknown scope must fail: %v", err)
	}
	out, err := run("list")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 3 || !strings.Contains(lines[1], "write_shared") || !strings.Contains(lines[2], "planner") || !strings.Contains(lines[2], "filter") {
		t.Fatalf("policy list:\n%s", out)
	}
	if out, _ := run("list", "-format", "json"); !strings.HasPrefix(out, `{"policies":[`) {
		t.Fatalf("json list: %s", out)
	}
}
