// Package logtest opens real event logs for tests: an embedded nats-server
// with JetStream on a free port and file storage in a directory the test
// owns, or the cluster named by CMEM_TEST_NATS_URL.
package logtest

import (
	"context"
	"io"
	"log/slog"
	"os"
	"testing"
	"time"

	"github.com/cmem/cmem/events/eventlog"
)

// Open opens a log on dir (a fresh t.TempDir() if dir is ""), closed when t
// ends. Reopening the same dir after Close sees the same events.
func Open(t testing.TB, dir string) *eventlog.Log {
	t.Helper()
	if dir == "" {
		dir = t.TempDir()
	}
	l, err := OpenDir(dir)
	if err != nil {
		t.Fatalf("open log: %v", err)
	}
	t.Cleanup(l.Close)
	return l
}

// OpenDir opens an embedded log on dir without tying it to a test.
func OpenDir(dir string) (*eventlog.Log, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	return eventlog.Open(ctx, eventlog.Config{DataDir: dir, Port: -1}, Logger())
}

// Logger is quiet unless CMEM_TEST_LOG is set.
func Logger() *slog.Logger {
	if os.Getenv("CMEM_TEST_LOG") != "" {
		return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	return slog.New(slog.NewTextHandler(io.Discard, nil))
}
