package layout_test

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

const root = "../.."

// The design card's folders: each must stand at the top.
var cardFolders = []string{"events", "projectors", "workers", "gateway", "schemas", "deploy"}

func readme(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// section is the text under heading up to the next heading of its level or
// above.
func section(t *testing.T, doc, heading string) string {
	t.Helper()
	i := strings.Index(doc, "\n"+heading+"\n")
	if i < 0 {
		t.Fatalf("README has no %q section", heading)
	}
	rest := doc[i+len(heading)+2:]
	if j := regexp.MustCompile(`(?m)^#{1,2} `).FindStringIndex(rest); j != nil {
		rest = rest[:j[0]]
	}
	return rest
}

// topFolders is every folder at the top of the repository that a newcomer
// sees with ls (hidden ones, and what .gitignore keeps out, excepted).
func topFolders(t *testing.T) []string {
	t.Helper()
	ignored := map[string]bool{"data": true, "bin": true, "scenario-out": true}
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	var dirs []string
	for _, e := range entries {
		if e.IsDir() && !strings.HasPrefix(e.Name(), ".") && !ignored[e.Name()] {
			dirs = append(dirs, e.Name())
		}
	}
	return dirs
}

// TestFolderMapIsTheTree: the README's folder map names every top-level
// folder once and nothing else, the card's folders are among them, and there
// are at most 20.
func TestFolderMapIsTheTree(t *testing.T) {
	m := section(t, readme(t), "## Folder map")
	var mapped []string
	for _, match := range regexp.MustCompile("(?m)^- `([a-z0-9_-]+)/`").FindAllStringSubmatch(m, -1) {
		mapped = append(mapped, match[1])
	}
	dirs := topFolders(t)
	slices.Sort(mapped)
	if !slices.Equal(mapped, dirs) {
		t.Errorf("README's folder map lists %v; the top-level folders are %v", mapped, dirs)
	}
	if len(dirs) > 20 {
		t.Errorf("%d top-level folders; the layout keeps 20 or fewer", len(dirs))
	}
	for _, c := range cardFolders {
		if !slices.Contains(dirs, c) {
			t.Errorf("the design card's folder %s/ is not at the top", c)
		}
	}
}

// TestReadmeFitsOnAScreen: the README stays short; reference lives in docs/.
func TestReadmeFitsOnAScreen(t *testing.T) {
	if n := strings.Count(readme(t), "\n"); n > 300 {
		t.Errorf("README.md has %d lines; keep it to 300 and move reference to docs/", n)
	}
}

// TestRelativeLinksResolve: every relative link of the README and of the
// pages in docs/ names a file or folder that exists.
func TestRelativeLinksResolve(t *testing.T) {
	pages := []string{filepath.Join(root, "README.md")}
	more, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	pages = append(pages, more...)
	link := regexp.MustCompile(`\]\(([^)\s]+)\)`)
	checked := 0
	for _, p := range pages {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range link.FindAllStringSubmatch(string(b), -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "#") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			target, _, _ = strings.Cut(target, "#")
			checked++
			if _, err := os.Stat(filepath.Join(filepath.Dir(p), target)); err != nil {
				t.Errorf("%s links %s, which does not exist", p, m[1])
			}
		}
	}
	if checked == 0 {
		t.Error("no relative link found: the README links docs/")
	}
}
