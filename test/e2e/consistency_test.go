package e2e_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/cmem/cmem/events/eventlog"
	"github.com/cmem/cmem/node"
	"github.com/cmem/cmem/node/nodetest"
)

// Two gateways share one log. Every read at B that starts after a grant or
// revoke was acknowledged by A must reflect it, while a third writer keeps
// B's projector busy with unrelated events.
func TestReadAfterRevokeAcrossGateways(t *testing.T) {
	a := nodetest.Start(t, nil)
	b := nodetest.Start(t, func(c *node.Config) { c.NATSURL = a.Log.ConnectURL() })
	ca, cb := nodetest.NewClient(t, a), nodetest.NewClient(t, b)
	const admin = nodetest.AdminToken

	const workers, rounds = 6, 40
	tokens := make([]string, workers)
	for i := range workers {
		tokens[i] = ca.User(fmt.Sprintf("u%d", i), "user")
		ca.Must(http.StatusCreated, "POST", "/v1/agents", admin, map[string]string{"id": fmt.Sprintf("a%d", i), "description": "d"})
	}
	// The user was registered at A a moment ago; B must accept its token.
	cb.Must(http.StatusOK, "GET", "/v1/access/u0", tokens[0], nil)

	stop := make(chan struct{})
	var noise sync.WaitGroup
	noise.Add(1)
	go func() { // unrelated load on the log
		defer noise.Done()
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			ca.Do("POST", "/v1/agents", admin, map[string]string{"id": fmt.Sprintf("noise%d", i), "description": "d"})
		}
	}()

	var violations atomic.Int32
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			user, agent := fmt.Sprintf("u%d", w), fmt.Sprintf("a%d", w)
			path := "/v1/grants/user-agent/" + user + "/" + agent
			for r := range rounds {
				granted := r%2 == 0
				method := "DELETE"
				if granted {
					method = "PUT"
				}
				if res := ca.Do(method, path, admin, nil); res.Status != http.StatusOK {
					t.Errorf("%s %s: %d %s", method, path, res.Status, res.Raw)
					return
				}
				// Read at B, as the user, right after A acknowledged.
				res := cb.Do("GET", "/v1/access/"+user, tokens[w], nil)
				if res.Status != http.StatusOK {
					t.Errorf("read at B: %d %s", res.Status, res.Raw)
					return
				}
				list, _ := res.Body["agents"].([]any)
				if (len(list) == 1) != granted {
					violations.Add(1)
					t.Errorf("round %d: after %s acknowledged at A, B answered %s", r, method, res.Raw)
				}
			}
		}()
	}
	wg.Wait()
	close(stop)
	noise.Wait()
	if v := violations.Load(); v != 0 {
		t.Fatalf("%d stale reads", v)
	}
}

// gate holds B's projections back on demand.
type gate struct {
	mu      sync.Mutex
	held    bool
	release chan struct{}
}

func (g *gate) wait(ctx context.Context, _ eventlog.Msg) error {
	g.mu.Lock()
	held, ch := g.held, g.release
	g.mu.Unlock()
	if !held {
		return nil
	}
	select {
	case <-ch:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (g *gate) hold() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.held, g.release = true, make(chan struct{})
}

func (g *gate) open() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.held {
		g.held = false
		close(g.release)
	}
}

// The fence, without luck: B's projections are held back, so B cannot
// have applied a revoke acknowledged at A. A read at B then waits for the
// projection and, when it does not get there within ReadWait, answers 503
// — never the stale grant. Once the projection is released the same read
// answers the revoke, and a read started while held waits and answers it
// too.
func TestReadAfterRevokeWaitsForTheProjection(t *testing.T) {
	var g gate
	t.Cleanup(g.open)
	a := nodetest.Start(t, nil)
	b := nodetest.Start(t, func(c *node.Config) {
		c.NATSURL = a.Log.ConnectURL()
		c.ProjectionGate = g.wait
		c.ReadWait = 2 * time.Second
	})
	ca, cb := nodetest.NewClient(t, a), nodetest.NewClient(t, b)
	const admin = nodetest.AdminToken
	alice := ca.User("alice", "user")
	ca.Must(http.StatusCreated, "POST", "/v1/agents", admin, map[string]string{"id": "planner", "description": "d"})
	ca.Must(http.StatusOK, "PUT", "/v1/grants/user-agent/alice/planner", admin, nil)
	if r := cb.Must(http.StatusOK, "GET", "/v1/access/alice", alice, nil); len(r.Body["agents"].([]any)) != 1 {
		t.Fatalf("B before the revoke: %s", r.Raw)
	}

	g.hold()
	revoked := ca.Must(http.StatusOK, "DELETE", "/v1/grants/user-agent/alice/planner", admin, nil).Revision()
	if b.Runner.Revision() >= revoked {
		t.Fatalf("B applied revision %d while held", revoked)
	}
	r := cb.Do("GET", "/v1/access/alice", alice, nil)
	if r.Status != http.StatusServiceUnavailable || !strings.Contains(string(r.Raw), "not yet available") {
		t.Fatalf("a read at B with its projection held answered %d %s, want 503 (it must wait, never answer stale)", r.Status, r.Raw)
	}

	waiting := make(chan nodetest.Response, 1)
	go func() { waiting <- cb.Do("GET", "/v1/access/alice", alice, nil) }()
	g.open()
	for _, r := range []nodetest.Response{<-waiting, cb.Do("GET", "/v1/access/alice", alice, nil)} {
		if r.Status != http.StatusOK || len(r.Body["agents"].([]any)) != 0 {
			t.Fatalf("B after release: %d %s", r.Status, r.Raw)
		}
	}
}
