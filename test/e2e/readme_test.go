package e2e_test

import (
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/cmem/cmem/node"
	"github.com/cmem/cmem/node/nodetest"
)

// TestReadme runs every code block of README.md that shows an output,
// with the cmem binary built from this tree on PATH, against a real node,
// and compares what it prints with what the README shows. The conventions
// (docs/benchmarks.md repeats them):
//
//   - An sh block that shows an output is run as one bash script. A
//     comment line "# → TEXT" right after a command is the last line that
//     command prints.
//   - A console block is a transcript: a "$ " line is a command, the lines
//     after it until the next are its whole output (stdout and stderr).
//   - In a shown output, "…" stands for any text (ids, times, tokens,
//     versions); a line that is only "…" stands for any number of lines.
//   - The test node's addresses and data directory are shown as the
//     defaults: 127.0.0.1:8080, 127.0.0.1:4222 and ./data.
//
// sh blocks run twice in the same directory: the second run, on existing
// data, must print the same (409s handled, no error JSON taken for a
// token). Blocks without an output (make run, make test) are not run.
func TestReadme(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Fatalf("the README's blocks need bash: %v", err)
	}
	raw, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	shBlocks, consoleBlocks := readmeBlocks(string(raw))
	if len(shBlocks) == 0 || len(consoleBlocks) == 0 {
		t.Fatalf("README shows no output to check (%d sh, %d console blocks)", len(shBlocks), len(consoleBlocks))
	}
	dir := t.TempDir()
	if out, err := exec.Command("go", "build", "-o", filepath.Join(dir, "bin", "cmem"), "../../cmd/cmem").CombinedOutput(); err != nil {
		t.Fatalf("build cmem: %v\n%s", err, out)
	}
	data := filepath.Join(dir, "data")
	n := nodetest.Start(t, func(c *node.Config) { c.DataDir = data })
	nu, err := url.Parse(n.Log.ClientURL())
	if err != nil {
		t.Fatal(err)
	}
	env := append(os.Environ(), "PATH="+filepath.Join(dir, "bin")+":"+os.Getenv("PATH"), "CMEM_URL=http://"+n.Addr(), "CMEM_ADMIN_TOKEN="+nodetest.AdminToken,
		"CMEM_TOKEN=", "CMEM_DATA="+data, "CMEM_NATS_PORT="+nu.Port(), "CMEM_NATS_URL=", "CMEM_WEAVIATE_URL=", "CMEM_CLICKHOUSE_DSN=", "CMEM_OPENAI_BASE_URL=")
	normalize := strings.NewReplacer(n.Addr(), "127.0.0.1:8080", nu.Host, "127.0.0.1:4222", data, "./data").Replace

	for run := 1; run <= 2; run++ {
		for b, block := range shBlocks {
			script, checks := instrument(block, dir)
			cmd := exec.Command("bash", "-uo", "pipefail", "-c", script)
			cmd.Dir, cmd.Env = dir, env
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("run %d, sh block %d failed: %v\n%s", run, b+1, err, out)
			}
			if strings.Contains(string(out), `"error"`) {
				t.Errorf("run %d, sh block %d: an error answer reached stdout:\n%s", run, b+1, out)
			}
			for _, c := range checks {
				got, _ := os.ReadFile(c.file)
				lines := strings.Split(strings.TrimSpace(normalize(string(got))), "\n")
				if last := lines[len(lines)-1]; !matchLine(c.want, last) {
					t.Errorf("run %d: %s\n  prints %q\n  README shows %q", run, c.cmd, last, c.want)
				}
			}
		}
	}
	for _, block := range consoleBlocks {
		for _, step := range transcript(block) {
			cmd := exec.Command("bash", "-uo", "pipefail", "-c", step.cmd)
			cmd.Dir, cmd.Env = dir, env
			out, _ := cmd.CombinedOutput()
			got := strings.Split(strings.TrimRight(normalize(string(out)), "\n"), "\n")
			if !matchLines(step.want, got) {
				t.Errorf("$ %s\nprints:\n%s\nREADME shows:\n%s", step.cmd, strings.Join(got, "\n"), strings.Join(step.want, "\n"))
			}
		}
	}
}

var fence = regexp.MustCompile("(?s)```(sh|console)\n(.*?)```")

// readmeBlocks are the sh blocks that show an output and every console
// block, in order.
func readmeBlocks(readme string) (sh, console []string) {
	for _, m := range fence.FindAllStringSubmatch(readme, -1) {
		switch {
		case m[1] == "console":
			console = append(console, m[2])
		case strings.Contains(m[2], "# → "):
			sh = append(sh, m[2])
		}
	}
	return sh, console
}

// shownOutput is a command of an sh block whose output the README shows.
type shownOutput struct{ cmd, want, file string }

// instrument rewrites an sh block so that each command followed by
// "# → TEXT" also writes its output to a file the test reads.
func instrument(block, dir string) (string, []shownOutput) {
	lines := strings.Split(block, "\n")
	var out []string
	var checks []shownOutput
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if t := strings.TrimSpace(l); t == "" || strings.HasPrefix(t, "#") {
			out = append(out, l)
			continue
		}
		cmd := l
		for strings.HasSuffix(cmd, `\`) && i+1 < len(lines) {
			i++
			cmd += "\n" + lines[i]
		}
		if i+1 < len(lines) {
			if want, ok := strings.CutPrefix(strings.TrimSpace(lines[i+1]), "# → "); ok {
				f := filepath.Join(dir, fmt.Sprintf(".readme-output-%d", len(checks)))
				out = append(out, fmt.Sprintf("__shown=$(%s\n); printf '%%s\\n' \"$__shown\" | tee %q", cmd, f))
				checks = append(checks, shownOutput{cmd: cmd, want: want, file: f})
				i++
				continue
			}
		}
		out = append(out, cmd)
	}
	return strings.Join(out, "\n"), checks
}

// step is one command of a console block and the output it shows.
type step struct {
	cmd  string
	want []string
}

func transcript(block string) []step {
	var steps []step
	for _, l := range strings.Split(strings.TrimRight(block, "\n"), "\n") {
		if c, ok := strings.CutPrefix(l, "$ "); ok {
			steps = append(steps, step{cmd: c})
		} else if len(steps) > 0 {
			steps[len(steps)-1].want = append(steps[len(steps)-1].want, l)
		}
	}
	return steps
}

// matchLine reports whether got is want with each "…" standing for any
// text.
func matchLine(want, got string) bool {
	parts := strings.Split(want, "…")
	for i, p := range parts {
		parts[i] = regexp.QuoteMeta(p)
	}
	return regexp.MustCompile("^" + strings.Join(parts, ".*") + "$").MatchString(got)
}

// matchLines reports whether got matches want line by line, a want line
// that is only "…" matching any number of lines.
func matchLines(want, got []string) bool {
	if len(want) == 0 {
		return len(got) == 0
	}
	if want[0] == "…" {
		for k := 0; k <= len(got); k++ {
			if matchLines(want[1:], got[k:]) {
				return true
			}
		}
		return false
	}
	return len(got) > 0 && matchLine(want[0], got[0]) && matchLines(want[1:], got[1:])
}

// TestReadmeMatching holds the matching rules to what the conventions say.
func TestReadmeMatching(t *testing.T) {
	for _, c := range []struct {
		want, got string
		ok        bool
	}{
		{"Lyon is known for its bouchons.", "Lyon is known for its bouchons.", true},
		{"Lyon is known for its bouchons.", "bouchons are small restaurants", false},
		{`[{"id":"critic","expires_at":"…"}]`, `[{"id":"critic","expires_at":"2026-01-01T00:00:00Z"}]`, true},
		{`[{"id":"critic","expires_at":"…"}]`, `[{"id":"critic"}]`, false},
		{"a.b", "axb", false},
	} {
		if matchLine(c.want, c.got) != c.ok {
			t.Errorf("matchLine(%q, %q) != %v", c.want, c.got, c.ok)
		}
	}
	if !matchLines([]string{"a", "…", "z"}, []string{"a", "b", "c", "z"}) || matchLines([]string{"a", "…", "z"}, []string{"a", "b"}) ||
		!matchLines([]string{"a", "…"}, []string{"a"}) || matchLines([]string{"a"}, []string{"a", "b"}) {
		t.Error("matchLines does not treat a line of … as any number of lines")
	}
	script, checks := instrument("X=1\ncmem a \\\n  -b c\n# → out\necho hi\n", "/d")
	if len(checks) != 1 || checks[0].cmd != "cmem a \\\n  -b c" || checks[0].want != "out" || !strings.Contains(script, "__shown=$(cmem a") || !strings.Contains(script, "echo hi") {
		t.Errorf("instrument: %q %+v", script, checks)
	}
}
