package resources_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cmem/cmem/resources"
)

// documentTree lays out, under a fresh temporary directory:
//
//	root/guide/{lyon.md, paris.TXT, empty.txt, notes.pdf, sub/deep.txt}
//	root/only-pdf/notes.pdf
//	root/big/large.txt
//	root/alias -> guide                   (a link that stays inside)
//	root/escape-abs -> <outside>          (absolute link out)
//	root/escape-rel -> ../outside         (relative link out)
//	root/leaky/{ok.txt, secret.txt -> ../../outside/secret.txt}
//	outside/secret.txt
func documentTree(t *testing.T) (root, outside string) {
	t.Helper()
	base := t.TempDir()
	root, outside = filepath.Join(base, "root"), filepath.Join(base, "outside")
	files := map[string]string{
		"root/guide/lyon.md":      "# Lyon\nBouchons serve local food.",
		"root/guide/paris.TXT":    "Paris has the Louvre.",
		"root/guide/empty.txt":    " \n",
		"root/guide/notes.pdf":    "Bouchons everywhere",
		"root/guide/sub/deep.txt": "Bouchons, deeper down",
		"root/only-pdf/notes.pdf": "nothing to index",
		"root/big/large.txt":      strings.Repeat("x", 64),
		"root/leaky/ok.txt":       "fine",
		"outside/secret.txt":      "the secret",
	}
	for name, text := range files {
		p := filepath.Join(base, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	links := map[string]string{
		"root/alias":            "guide",
		"root/escape-abs":       outside,
		"root/escape-rel":       "../outside",
		"root/leaky/secret.txt": "../../outside/secret.txt",
	}
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(base, filepath.FromSlash(name))); err != nil {
			t.Skipf("symbolic links unavailable: %v", err)
		}
	}
	return root, outside
}

func TestKnowledgeBaseFromPath(t *testing.T) {
	root, _ := documentTree(t)
	for _, path := range []string{"guide", "./guide/", filepath.Join(root, "guide"), "alias", "guide/sub/.."} {
		t.Run(path, func(t *testing.T) {
			config, _ := json.Marshal(map[string]string{"path": path})
			kb := mustBuildOpts(t, "knowledge_base", string(config), resources.Options{DocumentRoot: root})
			out, err := kb.Call(context.Background(), json.RawMessage(`{"query":"bouchons louvre","top_k":10}`))
			if err != nil {
				t.Fatal(err)
			}
			// Not notes.pdf (extension), sub/deep.txt (not recursive) or
			// empty.txt (blank); ids are file names.
			if got := strings.Join(resultIDs(out), ","); got != "lyon.md,paris.TXT" && got != "paris.TXT,lyon.md" {
				t.Fatalf("Call = %q, want lyon.md and paris.TXT only", out)
			}
		})
	}
}

func TestKnowledgeBasePathRefused(t *testing.T) {
	root, outside := documentTree(t)
	tests := []struct {
		name, path, wantMsg string
		opts                resources.Options
	}{
		{name: "dot-dot", path: "../outside", wantMsg: "outside the document root"},
		{name: "absolute outside", path: outside, wantMsg: "outside the document root"},
		{name: "absolute prefix trick", path: root + "-evil", wantMsg: "outside the document root"},
		{name: "absolute symlink out", path: "escape-abs"},
		{name: "relative symlink out", path: "escape-rel"},
		{name: "file symlink out", path: "leaky", wantMsg: "secret.txt"},
		{name: "missing", path: "nope"},
		{name: "a file, not a directory", path: "guide/lyon.md"},
		{name: "no documents", path: "only-pdf", wantMsg: "no non-empty .txt or .md files"},
		{name: "file too large", path: "big", wantMsg: "more than 32 bytes", opts: resources.Options{MaxDocumentBytes: 32}},
		{name: "too many files", path: "guide", wantMsg: "limit of 1 documents", opts: resources.Options{MaxDocuments: 1}},
		{name: "root missing", path: "guide", opts: resources.Options{DocumentRoot: filepath.Join(root, "gone")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.opts.DocumentRoot == "" {
				tt.opts.DocumentRoot = root
			}
			config, _ := json.Marshal(map[string]string{"path": tt.path})
			_, err := resources.Build("kb", "knowledge_base", "", config, tt.opts)
			if !errors.Is(err, resources.ErrConfig) || !strings.Contains(err.Error(), tt.wantMsg) {
				t.Fatalf("Build(path %q) = %v, want ErrConfig mentioning %q", tt.path, err, tt.wantMsg)
			}
			if strings.Contains(err.Error(), "the secret") {
				t.Fatalf("error leaks file content: %v", err)
			}
		})
	}
}
