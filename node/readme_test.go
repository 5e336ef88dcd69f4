package node_test

import (
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"github.com/cmem/cmem/node/nodetest"
)

// TestReadmeWalkthrough runs the shell block of the README's "Try it"
// section, as written, against a real node (only the line that finds the
// admin token and the address is pointed at the test node), and checks
// that its last call, a question, is answered correctly.
func TestReadmeWalkthrough(t *testing.T) {
	for _, tool := range []string{"bash", "curl", "sed"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("the walkthrough needs %s: %v", tool, err)
		}
	}
	raw, err := os.ReadFile("../README.md")
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
	setup := regexp.MustCompile(`(?m)^ADMIN=\$\(cat data/admin.token\); API=\S+$`)
	if !setup.MatchString(block[1]) {
		t.Fatal("the walkthrough no longer starts with ADMIN=$(cat data/admin.token); API=...")
	}
	n := nodetest.Start(t, nil)
	script := setup.ReplaceAllLiteralString(block[1], "ADMIN="+nodetest.AdminToken+"; API=http://"+n.Addr())
	out, err := exec.Command("bash", "-euo", "pipefail", "-c", script).CombinedOutput()
	if err != nil {
		t.Fatalf("walkthrough failed: %v\n%s", err, out)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	last := lines[len(lines)-1]
	if !strings.Contains(last, `"status":"answered"`) || !strings.Contains(last, "bouchons") || !strings.Contains(last, `"agent":"planner"`) {
		t.Fatalf("the walkthrough's question was not answered from the planner's guide:\n%s", out)
	}
	if !strings.Contains(string(out), `"agents":[{"id":"critic","resources":[]},{"id":"planner","resources":["guide"]}]`) {
		t.Fatalf("access at revision 7 differs from the README:\n%s", out)
	}
}
