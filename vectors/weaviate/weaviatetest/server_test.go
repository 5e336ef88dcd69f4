package weaviatetest

import (
	"strings"
	"testing"
)

// A machine without the binary must be told how to get it, not skipped.
func TestBinaryMissingNamesMakeTestDeps(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	t.Setenv("GOPATH", t.TempDir())
	_, err := Binary()
	if err == nil || !strings.Contains(err.Error(), "make test-deps") {
		t.Fatalf("Binary() with no weaviate-server anywhere: %v", err)
	}
}

func TestClassNamesAreValidAndUnique(t *testing.T) {
	a, b := Class(t), Class(t)
	if a == b {
		t.Fatalf("two calls gave %s", a)
	}
	for _, c := range []string{a, b} {
		if c[0] < 'A' || c[0] > 'Z' || strings.ContainsAny(c, "/- ") {
			t.Fatalf("%q is not a valid Weaviate class name", c)
		}
	}
}

func TestFreePortsAreDistinct(t *testing.T) {
	ports, err := freePorts(6)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[int]bool{}
	for _, p := range ports {
		if seen[p] || p <= 0 {
			t.Fatalf("ports %v", ports)
		}
		seen[p] = true
	}
}
