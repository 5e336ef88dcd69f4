package clickhousetest

import (
	"fmt"
	"os"
	"sync"
	"sync/atomic"
	"testing"
)

var (
	sharedOnce sync.Once
	shared     *Server
	sharedDir  string
	sharedErr  error
	databases  atomic.Int64
)

// Shared returns the server shared by every test of this binary, started
// on first use. A missing binary fails t (never skips) naming `make
// test-deps`. Call Main from TestMain to stop it when the tests end; the
// server also dies with the test binary if nothing does.
func Shared(t testing.TB) *Server {
	t.Helper()
	sharedOnce.Do(func() {
		sharedDir, sharedErr = os.MkdirTemp("", "cmem-clickhouse-")
		if sharedErr == nil {
			shared, sharedErr = New(sharedDir)
		}
	})
	if sharedErr != nil {
		t.Fatalf("clickhouse for tests: %v", sharedErr)
	}
	return shared
}

// Database returns a database name no other test of this binary uses.
func Database(prefix string) string {
	return fmt.Sprintf("%s_%d_%d", prefix, os.Getpid(), databases.Add(1))
}

// Start starts a server of its own for t under t.TempDir(), stopped when t
// ends: for tests that stop and start it.
func Start(t testing.TB) *Server {
	t.Helper()
	s, err := New(t.TempDir())
	if err != nil {
		t.Fatalf("clickhouse for tests: %v", err)
	}
	t.Cleanup(func() { _ = s.Stop() })
	return s
}

// Main runs the tests and then stops the shared server and removes its
// files; use it as TestMain's body: os.Exit(clickhousetest.Main(m)).
func Main(m *testing.M) int {
	code := m.Run()
	if shared != nil {
		_ = shared.Stop()
	}
	switch {
	case sharedDir == "":
	case code != 0:
		fmt.Fprintf(os.Stderr, "clickhousetest: kept the shared server's files for a look at its logs: %s\n", sharedDir)
	default:
		_ = os.RemoveAll(sharedDir)
	}
	return code
}
