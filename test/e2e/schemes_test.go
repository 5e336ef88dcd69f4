package e2e_test

import (
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cmem/cmem/llm/llmtest"
	"github.com/cmem/cmem/node"
	"github.com/cmem/cmem/node/nodetest"
)

// A revoke in the middle of a query, in every coordination scheme: a0
// answers round 1 from the slow resource, the edge is revoked while the
// tool call is in flight, and the query goes on with a1. No later round
// is shown a0's answer — not a1 (what the model is sent), not the
// coordinator, not the aggregator — no delivery holds it, and nothing a1
// wrote to memory does. The copying model puts every marker of its
// context in every output, so a scheme that passed the revoked turn on
// would show here.
func TestRevokeMidQueryInEveryCoordinationScheme(t *testing.T) {
	for _, mode := range []string{"centralized", "decentralized", "layered", "shared_pool"} {
		for name, tc := range map[string]struct {
			revoke    string
			forbidden []string
		}{
			"resource": {"/v1/grants/agent-resource/a0/slow", []string{"zqrslow"}},
			"agent":    {"/v1/grants/user-agent/u0/a0", []string{"zqrslow", "zqaa0"}},
		} {
			t.Run(mode+"/"+name, func(t *testing.T) { revokeMidQuery(t, mode, tc.revoke, tc.forbidden) })
		}
	}
}

func revokeMidQuery(t *testing.T, mode, revoke string, forbidden []string) {
	// Every request the model is sent after the revoke, but a0's own
	// round-1 turn after its tool result and the extraction of fragments
	// from it: those derive from the revoked edge by design (their outputs
	// carry its label).
	var mu sync.Mutex
	var sent []string
	revoked := false
	chat := func(req llmtest.ChatRequest) llmtest.Reply {
		var all strings.Builder
		for _, m := range req.Messages {
			all.WriteString(m.Content + " ")
		}
		mu.Lock()
		if revoked && !hasToolResult(req) && !strings.Contains(lastUser(req), `{"fragments"`) {
			sent = append(sent, all.String())
		}
		mu.Unlock()
		return copycat(req)
	}
	policy := map[string]any{"target": "coordination", "kind": mode, "scope": map[string]string{}}
	if mode != "centralized" {
		policy["config"] = map[string]any{"participants": "all"}
	}
	sc := startSlowQuery(t, chat, policy)
	c, id, tokens := sc.c, sc.id, sc.tokens
	c.Must(http.StatusOK, "DELETE", revoke, admin, nil)
	mu.Lock()
	revoked = true
	mu.Unlock()
	close(sc.release)
	got := c.Must(http.StatusOK, "GET", "/v1/queries/"+id+"?wait=30", tokens["u0"], nil)
	if got.Body["status"] != "answered" {
		t.Fatalf("query not answered: %s", got.Raw)
	}
	view := c.Must(http.StatusOK, "POST", "/v1/memory/view", tokens["u0"], map[string]any{"agent": "a1", "query": "facts", "k_user": 100, "k_cross": 100})
	for what, text := range map[string]string{"the answer": string(got.Raw), "u0's memory through a1": string(view.Raw)} {
		for _, m := range forbidden {
			if strings.Contains(text, m) {
				t.Fatalf("%s holds %s, content of what was revoked: %s", what, m, text)
			}
		}
	}
	mu.Lock()
	defer mu.Unlock()
	a1 := 0
	for _, req := range sent {
		if strings.Contains(req, "zqaa1") {
			a1++
		}
		for _, m := range forbidden {
			if strings.Contains(req, m) {
				t.Fatalf("a model call after the revoke was shown %s: %s", m, req)
			}
		}
	}
	if a1 == 0 {
		t.Fatalf("a1 never served the query: the scheme's later rounds were not exercised (%d steps): %s", len(got.Body["steps"].([]any)), got.Raw)
	}
}

// slowScene is a query of u0 whose first round is stuck in a tool call.
type slowScene struct {
	n       *node.Node
	c       *nodetest.Client
	tokens  map[string]string
	id      string
	release chan struct{} // closing it lets the tool answer
}

// startSlowQuery is the payroll scene with a slow tool: u0 may invoke a0,
// whose resource "slow" answers a zqrslow fact only once released, and a1.
// With the model chat and the policy (if any) set, u0 asks, and it returns
// once a0's tool call is in flight.
func startSlowQuery(t *testing.T, chat func(llmtest.ChatRequest) llmtest.Reply, policy map[string]any) slowScene {
	t.Helper()
	inCall, release := make(chan struct{}, 1), make(chan struct{})
	api := httptestServer(t, func(w http.ResponseWriter, _ *http.Request) {
		inCall <- struct{}{}
		<-release
		_, _ = w.Write([]byte(`{"fact": "zqrslow says the CEO salary is 9 million"}`))
	})
	n, c, tokens := leakNode(t, chat)
	c.Must(http.StatusCreated, "POST", "/v1/resources", admin, map[string]any{"id": "slow", "kind": "http", "description": "payroll facts",
		"url": api, "method": "POST", "timeout_ms": 30000,
		"parameters": map[string]any{"type": "object", "properties": map[string]any{"query": map[string]string{"type": "string"}}}})
	if policy != nil {
		c.Must(http.StatusCreated, "POST", "/v1/policies", admin, policy)
	}
	c.Must(http.StatusOK, "PUT", "/v1/grants/agent-resource/a0/slow", admin, nil)
	c.Must(http.StatusOK, "PUT", "/v1/grants/user-agent/u0/a0", admin, nil)
	c.Must(http.StatusOK, "PUT", "/v1/grants/user-agent/u0/a1", admin, nil)
	id := c.Must(http.StatusAccepted, "POST", "/v1/queries", tokens["u0"], map[string]any{"text": "facts please", "wait": false}).Body["id"].(string)
	select {
	case <-inCall:
	case <-time.After(30 * time.Second):
		t.Fatal("the tool was never called")
	}
	return slowScene{n: n, c: c, tokens: tokens, id: id, release: release}
}
