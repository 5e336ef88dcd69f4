package weaviatetest

import (
	"context"
	"fmt"
	"os"
	"regexp"
	"sync"
	"sync/atomic"
	"testing"
)

var shared struct {
	once   sync.Once
	server *Server
	err    error
}

// Shared returns the server of this test binary, starting it on first use
// (or using CMEM_TEST_WEAVIATE_URL). It fails the test if there is none.
// Call StopShared from TestMain after m.Run.
func Shared(tb testing.TB) *Server {
	tb.Helper()
	shared.once.Do(func() {
		if url := os.Getenv("CMEM_TEST_WEAVIATE_URL"); url != "" {
			shared.server = &Server{URL: url, GRPCAddr: os.Getenv("CMEM_TEST_WEAVIATE_GRPC")}
			return
		}
		shared.server, shared.err = Start(context.Background())
	})
	if shared.err != nil {
		tb.Fatalf("no Weaviate for this test (run `make test-deps`, or set CMEM_TEST_WEAVIATE_URL): %v", shared.err)
	}
	return shared.server
}

// StopShared stops the shared server if this binary started one.
func StopShared() {
	if shared.server != nil {
		shared.server.Stop()
	}
}

var (
	classSeq  atomic.Int64
	nonAlnum  = regexp.MustCompile(`[^A-Za-z0-9]+`)
	maxPrefix = 40
)

// Class returns a class name unique in this test binary, derived from the
// test's name so that a leftover class on an external server says where it
// came from.
func Class(tb testing.TB) string {
	name := nonAlnum.ReplaceAllString(tb.Name(), "")
	if len(name) > maxPrefix {
		name = name[len(name)-maxPrefix:]
	}
	return fmt.Sprintf("T%s%dP%d", name, classSeq.Add(1), os.Getpid())
}
