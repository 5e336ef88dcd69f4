package main_test

import (
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
)

// settingCommands are the commands whose flags are settings (server
// roles, the MCP server, the checks); each flag must have its CMEM_*
// variable. The API commands' per-call flags (-get, -role, …) are not
// settings; their -url and -token are CMEM_URL and CMEM_TOKEN.
var settingCommands = []string{"serve", "gateway", "worker", "mcp", "health", "doctor"}

// helpFlag is one flag of a -h listing: its name, type word, and usage.
type helpFlag struct{ name, kind, usage string }

var flagLine = regexp.MustCompile(`^  -(\S+)(?: (\S+))?$`)

// helpFlags runs `cmem <cmd> -h` with extra environment and parses the
// flag listing (flag.PrintDefaults' format).
func helpFlags(t *testing.T, cmd string, extra ...string) []helpFlag {
	t.Helper()
	c := exec.Command(binary, cmd, "-h")
	c.Env = append(os.Environ(), extra...)
	out, err := c.CombinedOutput()
	if err != nil {
		t.Fatalf("cmem %s -h: %v\n%s", cmd, err, out)
	}
	var flags []helpFlag
	for _, line := range strings.Split(string(out), "\n") {
		if m := flagLine.FindStringSubmatch(line); m != nil {
			flags = append(flags, helpFlag{name: m[1], kind: m[2]})
		} else if strings.HasPrefix(line, "    \t") && len(flags) > 0 {
			flags[len(flags)-1].usage += strings.TrimSpace(line) + " "
		}
	}
	if len(flags) == 0 {
		t.Fatalf("cmem %s -h lists no flags:\n%s", cmd, out)
	}
	return flags
}

var envName = regexp.MustCompile(`\((CMEM_[A-Z_]+)(?:=(\w+))?\)`)

// TestEveryFlagHasItsVariable: every flag of a setting command names its
// CMEM_* variable, setting that variable changes the flag's default (so
// the name is not just text), and docs/configuration.md lists the pair.
func TestEveryFlagHasItsVariable(t *testing.T) {
	doc, err := os.ReadFile("../../docs/configuration.md")
	if err != nil {
		t.Fatal(err)
	}
	samples := map[string]string{"int": "4321", "duration": "7s", "float": "0.25", "string": "x-probe"}
	shown := map[string]string{"int": "4321", "duration": "7s", "float": "0.25", "string": `"x-probe"`}
	for _, cmd := range settingCommands {
		for _, f := range helpFlags(t, cmd) {
			m := envName.FindStringSubmatch(f.usage)
			if m == nil {
				t.Errorf("cmem %s -%s names no CMEM_* variable: %q", cmd, f.name, f.usage)
				continue
			}
			if !docRow(string(doc), m[1], f.name) {
				t.Errorf("docs/configuration.md has no row with `%s` and `-%s`", m[1], f.name)
			}
			value, want := samples[f.kind], "(default "+shown[f.kind]+")"
			if f.kind == "" { // a bool: the variable's documented value turns it on
				value, want = m[2], "(default true)"
			}
			if value == "" {
				t.Errorf("cmem %s -%s: no sample for type %q", cmd, f.name, f.kind)
				continue
			}
			var got string
			for _, g := range helpFlags(t, cmd, m[1]+"="+value) {
				if g.name == f.name {
					got = g.usage
				}
			}
			if !strings.Contains(got, want) {
				t.Errorf("cmem %s: %s=%s did not become -%s's default: %q", cmd, m[1], value, f.name, got)
			}
		}
	}
}

// docRow reports whether a table row of doc names both the variable and
// the flag.
func docRow(doc, variable, flag string) bool {
	for _, line := range strings.Split(doc, "\n") {
		if strings.HasPrefix(line, "|") && strings.Contains(line, "`"+variable+"`") && strings.Contains(line, "`-"+flag+"`") {
			return true
		}
	}
	return false
}
