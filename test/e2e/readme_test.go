package e2e_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/cmem/cmem/node/nodetest"
)

// TestReadmeWalkthrough runs the shell block of the README's "Try it"
// section, as written, with the cmem binary built from this tree on PATH,
// against a real node (CMEM_URL and CMEM_ADMIN_TOKEN point at the test
// node), twice in the same directory: the second run, on existing data,
// must work too (409s handled, no error JSON taken for a token). Its last
// call, a question, must be answered from the planner's guide, exactly as
// the README prints it: the guide's sentence, not the planner's memory of
// what bouchons are.
func TestReadmeWalkthrough(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Fatalf("the walkthrough needs bash: %v", err)
	}
	raw, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(raw)
	start := strings.Index(readme, "## Try it")
	if start < 0 {
		t.Fatal(`README has no "## Try it" section`)
	}
	block := regexp.MustCompile("(?s)```sh\n(.*?)```").FindStringSubmatch(readme[start:])
	if block == nil {
		t.Fatal(`README's "Try it" has no sh block`)
	}
	dir := t.TempDir()
	if out, err := exec.Command("go", "build", "-o", filepath.Join(dir, "bin", "cmem"), "../../cmd/cmem").CombinedOutput(); err != nil {
		t.Fatalf("build cmem: %v\n%s", err, out)
	}
	if err := os.MkdirAll(filepath.Join(dir, "data"), 0o755); err != nil {
		t.Fatal(err)
	}
	n := nodetest.Start(t, nil)
	for run := 1; run <= 2; run++ {
		cmd := exec.Command("bash", "-uo", "pipefail", "-c", block[1])
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "CMEM_URL=http://"+n.Addr(), "CMEM_ADMIN_TOKEN="+nodetest.AdminToken, "CMEM_TOKEN=", "CMEM_DATA="+filepath.Join(dir, "data"))
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("run %d: walkthrough failed: %v\n%s", run, err, out)
		}
		lines := strings.Split(strings.TrimSpace(string(out)), "\n")
		if last := lines[len(lines)-1]; last != "Lyon is known for its bouchons." {
			t.Fatalf("run %d: the walkthrough's question was not answered from the planner's guide:\n%s", run, out)
		}
		// At the grant's revision critic was still granted (for 8 hours).
		if !regexp.MustCompile(`\[\{"id":"critic","resources":\[\],"expires_at":"[^"]+"\},\{"id":"planner","resources":\["guide"\]\}\]`).Match(out) {
			t.Fatalf("run %d: access at the grant's revision differs from the README:\n%s", run, out)
		}
		if strings.Contains(string(out), `"error"`) {
			t.Fatalf("run %d: an error answer reached stdout:\n%s", run, out)
		}
	}
}
