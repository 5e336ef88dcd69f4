package node_test

import (
	"fmt"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"

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
