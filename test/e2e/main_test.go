package e2e_test

import (
	"os"
	"testing"

	"github.com/cmem/cmem/vectors/weaviate/weaviatetest"
)

func TestMain(m *testing.M) {
	code := m.Run()
	weaviatetest.StopShared()
	os.Exit(code)
}
