package layout_test

import (
	"encoding/json"
	"errors"
	"io"
	"os/exec"
	"strings"
	"testing"
)

const module = "github.com/cmem/cmem"

// layers ranks the top-level folders from the ground up, as the README's
// picture draws them. A package may import its own folder's packages and
// those of any lower layer, never one of its own layer's other folders or a
// higher one. test/ stands above everything and is imported by nothing.
var layers = [][]string{
	{"domain", "schemas", "internal"},
	{"events", "vectors", "embedding", "resources"},
	{"llm"},
	{"projectors"},
	{"app", "shred"},
	{"workers", "gateway"},
	{"node"},
	{"clients", "experiments"},
	{"cmd"},
	{"test"},
}

type pkg struct {
	ImportPath string
	Imports    []string
}

// packages lists every package of the module with its non-test imports.
func packages(t *testing.T) []pkg {
	t.Helper()
	cmd := exec.Command("go", "list", "-e", "-json=ImportPath,Imports", "./...")
	cmd.Dir = "../.."
	out, err := cmd.Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			t.Fatalf("go list: %v\n%s", err, ee.Stderr)
		}
		t.Fatalf("go list: %v", err)
	}
	var pkgs []pkg
	dec := json.NewDecoder(strings.NewReader(string(out)))
	for {
		var p pkg
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		pkgs = append(pkgs, p)
	}
	if len(pkgs) < 20 {
		t.Fatalf("go list found only %d packages", len(pkgs))
	}
	return pkgs
}

// folder is the top-level folder of a package of the module ("" for
// another module's package).
func folder(path string) string {
	rest, ok := strings.CutPrefix(path, module+"/")
	if !ok {
		return ""
	}
	top, _, _ := strings.Cut(rest, "/")
	return top
}

func rank(t *testing.T, top string) int {
	for i, l := range layers {
		for _, f := range l {
			if f == top {
				return i
			}
		}
	}
	t.Fatalf("top-level folder %q has no layer: add it to layers (and to the README's picture)", top)
	return -1
}

// TestNoImportRunsUpward: every import of every package stays in its own
// folder or goes down a layer.
func TestNoImportRunsUpward(t *testing.T) {
	checked := 0
	for _, p := range packages(t) {
		from := folder(p.ImportPath)
		for _, imp := range p.Imports {
			to := folder(imp)
			if to == "" || to == from {
				continue
			}
			checked++
			if rank(t, from) <= rank(t, to) {
				t.Errorf("%s imports %s: %s/ may not import %s/ (layer %d → %d)",
					p.ImportPath, imp, from, to, rank(t, from), rank(t, to))
			}
		}
	}
	if checked < 50 {
		t.Fatalf("only %d imports between folders checked: the listing is wrong", checked)
	}
}

// TestProductionImportsNoTestCode: a package that ships in the binary
// imports no test harness (a package named *test) and nothing under test/;
// only cmd/ may reach experiments/, which the server's packages never import.
func TestProductionImportsNoTestCode(t *testing.T) {
	harness := func(path string) bool {
		last := path[strings.LastIndex(path, "/")+1:]
		return strings.HasSuffix(last, "test") || folder(path) == "test"
	}
	for _, p := range packages(t) {
		if folder(p.ImportPath) == "" || harness(p.ImportPath) {
			continue
		}
		for _, imp := range p.Imports {
			if folder(imp) == "" {
				continue
			}
			if harness(imp) {
				t.Errorf("%s (production) imports the test harness %s", p.ImportPath, imp)
			}
			if folder(imp) == "experiments" && folder(p.ImportPath) != "cmd" && folder(p.ImportPath) != "experiments" {
				t.Errorf("%s imports the experiment %s: only cmd/ may", p.ImportPath, imp)
			}
		}
	}
}
