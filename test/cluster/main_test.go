package cluster_test

import (
	"os"
	"testing"

	"github.com/cmem/cmem/vectors/weaviate/weaviatetest"
)

// TestMain stops the Weaviate the lease tests share (weaviatetest.Shared)
// when the package ends: without it the server outlived the test binary,
// re-parented to init, after every run.
func TestMain(m *testing.M) {
	code := m.Run()
	weaviatetest.StopShared()
	os.Exit(code)
}
