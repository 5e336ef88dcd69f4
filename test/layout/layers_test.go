package layout_test

import (
	"encoding/json"
	"errors"
	"io"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/cmem/cmem"

// readmeLayers is the README's list of layers, from the ground up: its
// lines " L<n> a/ · b/ — what they hold". A package may import its own
// folder's packages and those of any lower layer, never one of its own
// layer's other folders or a higher one; test/ stands above everything.
func readmeLayers(t *testing.T) [][]string {
	t.Helper()
	line := regexp.MustCompile(`(?m)^ L(\d+) (.+?) — `)
	var layers [][]string
	for _, m := range line.FindAllStringSubmatch(readme(t), -1) {
		n, err := strconv.Atoi(m[1])
		if err != nil {
			t.Fatal(err)
		}
		for len(layers) <= n {
			layers = append(layers, nil)
		}
		for _, f := range regexp.MustCompile(`([a-z0-9_-]+)/`).FindAllStringSubmatch(m[2], -1) {
			layers[n] = append(layers[n], f[1])
		}
	}
	if len(layers) < 5 {
		t.Fatalf("README's architecture lists %d layers (lines \" L<n> folder/ — …\")", len(layers))
	}
	for i, l := range layers {
		if len(l) == 0 {
			t.Fatalf("README's architecture has no layer L%d", i)
		}
	}
	return layers
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

func rank(t *testing.T, layers [][]string, top string) int {
	t.Helper()
	for i, l := range layers {
		for _, f := range l {
			if f == top {
				return i
			}
		}
	}
	t.Fatalf("top-level folder %q has no layer in the README's architecture", top)
	return -1
}

// TestNoImportRunsUpward: every import of every package stays in its own
// folder or goes down a layer.
func TestNoImportRunsUpward(t *testing.T) {
	layers := readmeLayers(t)
	checked := 0
	for _, p := range packages(t) {
		from := folder(p.ImportPath)
		for _, imp := range p.Imports {
			to := folder(imp)
			if to == "" || to == from {
				continue
			}
			checked++
			if rf, rt := rank(t, layers, from), rank(t, layers, to); rf <= rt {
				t.Errorf("%s imports %s: %s/ may not import %s/ (layer L%d → L%d)",
					p.ImportPath, imp, from, to, rf, rt)
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

// TestEveryFolderHasALayer: the README's layers name every top-level folder
// once (docs/ and deploy/ hold no Go package of the server and stand apart).
func TestEveryFolderHasALayer(t *testing.T) {
	seen := map[string]int{}
	for _, l := range readmeLayers(t) {
		for _, f := range l {
			seen[f]++
		}
	}
	for _, d := range topFolders(t) {
		if d == "docs" || d == "deploy" {
			continue
		}
		if seen[d] != 1 {
			t.Errorf("%s/ stands in %d of the README's layers, want 1", d, seen[d])
		}
	}
}
