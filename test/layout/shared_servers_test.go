package layout_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A test binary that starts the shared Weaviate (weaviatetest.Shared)
// stops it in its TestMain (weaviatetest.StopShared): the server is a
// separate process, and one nobody stops outlives the test run.
func TestSharedWeaviateIsStopped(t *testing.T) {
	uses, stops := map[string]bool{}, map[string]bool{}
	err := filepath.WalkDir("../..", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, "_test.go") {
			return err
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		dir := filepath.Dir(path)
		uses[dir] = uses[dir] || strings.Contains(string(src), "weaviatetest.Shared(")
		stops[dir] = stops[dir] || strings.Contains(string(src), "weaviatetest.StopShared()")
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for dir, used := range uses {
		if !used {
			continue
		}
		n++
		if !stops[dir] {
			t.Errorf("%s: tests use weaviatetest.Shared but no TestMain calls weaviatetest.StopShared()", dir)
		}
	}
	if n == 0 {
		t.Fatal("no package uses weaviatetest.Shared: the walk found nothing")
	}
}
