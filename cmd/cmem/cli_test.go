package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cmem/cmem/node/nodetest"
)

// TestHelpExitsZeroEverywhere: -h of every command and subcommand prints
// usage and exits 0 (cmem audit visible -h used to exit 1).
func TestHelpExitsZeroEverywhere(t *testing.T) {
	for _, args := range [][]string{
		{"-h"}, {"help"}, {"version", "-h"},
		{"audit", "-h"}, {"audit", "visible", "-h"}, {"audit", "deliveries", "-h"}, {"audit", "metrics", "-h"},
		{"policy", "-h"}, {"policy", "set", "-h"}, {"policy", "list", "-h"},
		{"user", "-h"}, {"user", "add", "-h"}, {"agent", "add", "-h"}, {"resource", "add", "-h"},
		{"grant", "-h"}, {"batch", "-h"}, {"grant", "user-agent", "-h"}, {"revoke", "agent-resource", "-h"},
		{"access", "-h"}, {"fragment", "write", "-h"}, {"memory", "view", "-h"}, {"memory", "graph", "-h"},
		{"query", "-h"}, {"query", "ask", "-h"}, {"query", "get", "-h"}, {"mcp", "-h"}, {"health", "-h"},
		{"user", "rotate-token", "-h"}, {"user", "erase", "-h"}, {"fragment", "delete", "-h"}, {"query", "list", "-h"},
		{"me", "-h"}, {"access-graph", "-h"}, {"grant-changes", "-h"}, {"usage", "-h"}, {"events", "-h"}, {"digest", "-h"},
	} {
		var out, errOut bytes.Buffer
		if code := dispatch(args[0], args[1:], &out, &errOut); code != 0 {
			t.Errorf("cmem %s: exit %d, want 0: %s", strings.Join(args, " "), code, errOut.String())
		}
		if !strings.Contains(strings.ToLower(out.String()), "usage") {
			t.Errorf("cmem %s printed no usage: %q", strings.Join(args, " "), out.String())
		}
	}
	var out, errOut bytes.Buffer
	if code := dispatch("frobnicate", nil, &out, &errOut); code != 2 {
		t.Errorf("unknown command: exit %d, want 2", code)
	}
	if code := dispatch("user", []string{"add"}, &out, &errOut); code != 1 {
		t.Errorf("user add without id: exit %d, want 1", code)
	}
}

// TestCLIWalkthrough drives every API command against a live node: the
// admin sets up, the user writes and reads memory and asks, and a refused
// call exits 1 with the API's message.
func TestCLIWalkthrough(t *testing.T) {
	_, c := nodetest.StartClient(t, nil)
	run := func(want int, args ...string) string {
		t.Helper()
		var out, errOut bytes.Buffer
		args = append(args, "-url", c.Base)
		if code := dispatch(args[0], args[1:], &out, &errOut); code != want {
			t.Fatalf("cmem %s: exit %d, want %d: %s%s", strings.Join(args, " "), code, want, out.String(), errOut.String())
		}
		return out.String() + errOut.String()
	}
	t.Setenv("CMEM_ADMIN_TOKEN", nodetest.AdminToken)
	alice := strings.TrimSpace(run(0, "user", "add", "alice", "-get", "token"))
	if !strings.HasPrefix(alice, "cmem_") {
		t.Fatalf("token %q", alice)
	}
	if out := run(1, "user", "add", "alice"); !strings.Contains(out, "409") {
		t.Fatalf("second add: %s", out)
	}
	run(0, "agent", "add", "planner", "-description", "plans trips")
	run(0, "agent", "add", "planner", "-description", "plans trips", "-exist-ok")
	if out := run(1, "agent", "add", "planner", "-description", "plans trips"); !strings.Contains(out, "409") {
		t.Fatalf("second agent add: %s", out)
	}
	run(0, "agent", "add", "critic", "-description", "reviews restaurants")
	run(0, "resource", "add", "guide", "-kind", "knowledge_base", "-description", "city guide",
		"-config", `{"documents":[{"id":"lyon","text":"Lyon is known for its bouchons."}]}`)
	run(0, "grant", "user-agent", "alice", "planner")
	run(0, "grant", "user-agent", "alice", "critic", "-ttl", "8h")
	run(0, "grant", "agent-resource", "planner", "guide")
	rev := strings.TrimSpace(run(0, "revoke", "user-agent", "alice", "critic", "-get", "revision"))

	t.Setenv("CMEM_TOKEN", alice)
	var acc struct {
		Agents []struct{ ID string } `json:"agents"`
	}
	if err := json.Unmarshal([]byte(run(0, "access", "alice", "-min-revision", rev)), &acc); err != nil || len(acc.Agents) != 1 || acc.Agents[0].ID != "planner" {
		t.Fatalf("access %+v %v", acc, err)
	}
	if out := run(1, "access", "bob"); !strings.Contains(out, "403") && !strings.Contains(out, "404") {
		t.Fatalf("alice asked about bob: %s", out)
	}
	fragRev := strings.TrimSpace(run(0, "fragment", "write", "-agent", "planner", "-key", "lyon", "-value", "bouchons are small restaurants", "-resources", "guide", "-get", "revision"))
	if out := run(1, "fragment", "write", "-agent", "critic", "-key", "k", "-value", "v"); !strings.Contains(out, "403") {
		t.Fatalf("write through a revoked agent: %s", out)
	}
	if out := run(0, "memory", "view", "-agent", "planner", "-query", "lyon", "-min-revision", fragRev); !strings.Contains(out, "bouchons are small") {
		t.Fatalf("view: %s", out)
	}
	id := strings.TrimSpace(run(0, "query", "ask", "where", "to", "eat", "in", "Lyon?", "-no-wait", "-get", "id"))
	if out := run(0, "query", "get", id, "-wait", "30"); !strings.Contains(out, `"id": "`+id) {
		t.Fatalf("query get: %s", out)
	}
	file := filepath.Join(t.TempDir(), "load.jsonl")
	if err := os.WriteFile(file, []byte(`# a comment
{"op":"register_user","id":"dora"}
{"op":"grant","edge":"user-agent","from":"dora","to":"planner"}

{"op":"grant","edge":"user-agent","from":"dora","to":"critic"}
`), 0o600); err != nil {
		t.Fatal(err)
	}
	if out := run(0, "batch", file, "-size", "2"); strings.Count(out, `"revision":`) != 3 || !strings.Contains(out, `"token":"cmem_`) {
		t.Fatalf("batch: %s", out)
	}
	if out := run(1, "batch", file); !strings.Contains(out, "409") || !strings.Contains(out, "items 0..2") {
		t.Fatalf("batch again: %s", out)
	}
	qRev := strings.TrimSpace(run(0, "query", "get", id, "-get", "revision"))
	if out := run(0, "memory", "graph", "-agent", "planner", "-query", "where to eat in Lyon", "-min-revision", qRev); !strings.Contains(out, `"insights"`) ||
		!strings.Contains(out, id) {
		t.Fatalf("memory graph does not hold the query just answered: %s", out)
	}
	if out := run(0, "health"); out != "ok\n" {
		t.Fatalf("health: %q", out)
	}
	if out := run(0, "version"); !strings.HasPrefix(out, "cmem ") {
		t.Fatalf("version: %q", out)
	}
}
