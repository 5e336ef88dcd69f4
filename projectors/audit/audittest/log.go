package audittest

import (
	"context"
	"testing"
	"time"

	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/events/eventlog"
)

// AppendLog appends envs to l in chunks and returns the log's head: how a
// Fixture's Append fills the log its backend follows.
func AppendLog(t testing.TB, l *eventlog.Log, envs []events.Envelope) uint64 {
	t.Helper()
	for len(envs) > 0 {
		// A deadline per chunk: a loaded machine slows a large workload
		// down, it does not make it wrong.
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		n := min(len(envs), 10_000)
		_, err := l.AppendBatch(ctx, envs[:n])
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		envs = envs[n:]
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	head, err := l.Head(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	return head
}
