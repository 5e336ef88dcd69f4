package main_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cmem/cmem/node/nodetest"
)

// TestUserLifecycleCLI runs the real binary against a live node: a token
// goes to a file only when the call succeeded, -exist-ok is silent, and
// rotate-token, revoke-token, deactivate, reactivate and erase do what
// the API does.
func TestUserLifecycleCLI(t *testing.T) {
	_, c := nodetest.StartClient(t, nil)
	dir := t.TempDir()
	run := func(want int, token string, args ...string) (string, string) {
		t.Helper()
		cmd := exec.Command(binary, args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "CMEM_URL="+c.Base, "CMEM_ADMIN_TOKEN="+nodetest.AdminToken, "CMEM_TOKEN="+token)
		var out, errOut strings.Builder
		cmd.Stdout, cmd.Stderr = &out, &errOut
		err := cmd.Run()
		if code := cmd.ProcessState.ExitCode(); code != want {
			t.Fatalf("cmem %s: exit %d (%v), want %d:\n%s%s", strings.Join(args, " "), code, err, want, out.String(), errOut.String())
		}
		return out.String(), errOut.String()
	}
	tokenFile := filepath.Join(dir, "bob.token")
	run(0, "", "user", "add", "bob", "-get", "token", "-out", tokenFile)
	first, err := os.ReadFile(tokenFile)
	if err != nil || !strings.HasPrefix(string(first), "cmem_") {
		t.Fatalf("token file %q: %v", first, err)
	}
	// Again: bob exists; the saved token stays, no stray file appears.
	if _, e := run(1, "", "user", "add", "bob", "-get", "token", "-out", tokenFile); !strings.Contains(e, "409") {
		t.Fatalf("second add: %s", e)
	}
	if again, _ := os.ReadFile(tokenFile); string(again) != string(first) {
		t.Fatalf("a failed add changed the token file: %q", again)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Fatalf("a failed add left files behind: %v", entries)
	}
	run(0, "", "agent", "add", "planner", "-description", "plans trips")
	if out, e := run(0, "", "agent", "add", "planner", "-description", "plans trips", "-exist-ok"); out+e != "" {
		t.Fatalf("-exist-ok on an existing id printed %q", out+e)
	}
	bob := strings.TrimSpace(string(first))
	if out, _ := run(0, bob, "me"); !strings.Contains(out, `"id": "bob"`) {
		t.Fatalf("me: %s", out)
	}
	// Bob rotates his own token: the old one stops working.
	run(0, bob, "user", "rotate-token", "bob", "-get", "token", "-out", tokenFile)
	second, _ := os.ReadFile(tokenFile)
	if string(second) == string(first) || !strings.HasPrefix(string(second), "cmem_") {
		t.Fatalf("rotate-token wrote %q", second)
	}
	if _, e := run(1, bob, "me"); !strings.Contains(e, "401") {
		t.Fatalf("the rotated-out token still works: %s", e)
	}
	bob = strings.TrimSpace(string(second))
	run(0, "", "user", "deactivate", "bob")
	if _, e := run(1, bob, "access", "bob"); !strings.Contains(e, "401") && !strings.Contains(e, "403") {
		t.Fatalf("a deactivated user was served: %s", e)
	}
	run(0, "", "user", "reactivate", "bob")
	run(0, bob, "access", "bob")
	run(0, bob, "user", "revoke-token", "bob")
	if _, e := run(1, bob, "me"); !strings.Contains(e, "401") {
		t.Fatalf("a revoked token still works: %s", e)
	}
	if out, _ := run(0, "", "user", "erase", "bob", "-get", "revision"); strings.TrimSpace(out) == "" {
		t.Fatal("erase answered no revision")
	}
	if out, _ := run(0, "", "query", "list"); !strings.Contains(out, `"queries"`) {
		t.Fatalf("query list: %s", out)
	}
}
