package e2e_test

import (
	"bytes"
	"context"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cmem/cmem/node"
	"github.com/cmem/cmem/node/nodetest"
)

// lockedBuffer is a log destination the test reads while the node writes.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// A process whose projections do not reach the log's head at start (here
// held back) says so while it waits — a warn line naming the revision it
// waits for and where it is — instead of waiting without a word; once they
// get there it starts.
func TestStartSaysWhileItsProjectionsCatchUp(t *testing.T) {
	a := nodetest.Start(t, nil)
	nodetest.NewClient(t, a).Must(http.StatusCreated, "POST", "/v1/agents", nodetest.AdminToken, map[string]string{"id": "planner", "description": "d"})
	var g gate
	t.Cleanup(g.open)
	g.hold()
	var out lockedBuffer
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	started := make(chan error, 1)
	go func() {
		n, err := node.Start(ctx, node.Config{DataDir: t.TempDir(), HTTPAddr: "127.0.0.1:0", AdminToken: nodetest.AdminToken,
			NATSURL: a.Log.ConnectURL(), ProjectionGate: g.wait, ReadWait: 5 * time.Second},
			slog.New(slog.NewTextHandler(&out, &slog.HandlerOptions{Level: slog.LevelWarn})))
		if err == nil {
			t.Cleanup(n.Close)
		}
		started <- err
	}()
	for !strings.Contains(out.String(), `for="the projections to reach revision`) {
		select {
		case err := <-started:
			t.Fatalf("started (%v) with its projections held back; log:\n%s", err, out.String())
		case <-ctx.Done():
			t.Fatalf("no word in 2 minutes while the projections were held back; log:\n%s", out.String())
		case <-time.After(100 * time.Millisecond):
		}
	}
	g.open()
	if err := <-started; err != nil {
		t.Fatalf("start after the projections were released: %v", err)
	}
}
