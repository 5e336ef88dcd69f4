package e2e_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/cmem/cmem/node/nodetest"
)

// A memory view returns only hits above its relevance floor: the default
// (the semantic embedder's 0.2) drops a fragment about something else,
// min_score raises or lowers the floor, and a floor outside -1..1 is a 400.
func TestMemoryViewRelevanceFloor(t *testing.T) {
	_, c := nodetest.StartClient(t, nil)
	c.Must(http.StatusCreated, "POST", "/v1/agents", admin, map[string]string{"id": "guide", "description": "city guide"})
	alice := c.User("alice", "user")
	grantAgent(c, "alice", "guide")
	c.Must(http.StatusCreated, "POST", "/v1/fragments", alice, map[string]any{"agent": "guide", "key": "What food is Lyon famous for?", "value": "Quenelles.", "tier": "private"})
	w := c.Must(http.StatusCreated, "POST", "/v1/fragments", alice, map[string]any{"agent": "guide", "key": "quarterly tax filing deadline", "value": "April.", "tier": "private"})
	view := func(body map[string]any) []string {
		body["agent"], body["query"], body["min_revision"] = "guide", "Which dish is Lyon known for?", w.Revision()
		r := c.Must(http.StatusOK, "POST", "/v1/memory/view", alice, body)
		var keys []string
		for _, f := range r.Body["private"].([]any) {
			keys = append(keys, f.(map[string]any)["key"].(string))
		}
		return keys
	}
	if got := view(map[string]any{}); len(got) != 1 || got[0] != "What food is Lyon famous for?" {
		t.Fatalf("default floor: %q, want only the Lyon fragment", got)
	}
	if got := view(map[string]any{"min_score": -1}); len(got) != 2 {
		t.Fatalf("min_score -1: %q, want both fragments", got)
	}
	if got := view(map[string]any{"min_score": 0.99}); len(got) != 0 {
		t.Fatalf("min_score 0.99: %q, want none", got)
	}
	r := c.Do("POST", "/v1/memory/view", alice, map[string]any{"agent": "guide", "query": "x", "min_score": 2})
	if r.Status != http.StatusBadRequest {
		t.Fatalf("min_score 2: %d %s, want 400", r.Status, r.Raw)
	}
}

// When no agent of the user is relevant, the answer says so and names the
// agents considered, instead of "No agents were able to process the query."
func TestNothingRelevantNamesTheAgents(t *testing.T) {
	_, c := nodetest.StartClient(t, nil)
	world(c)
	alice := c.User("alice", "user")
	grantAgent(c, "alice", "travel")
	grantAgent(c, "alice", "finance")
	r := ask(c, alice, "Which chess opening did the grandmaster play?")
	answer := r.Body["answer"].(string)
	if !strings.Contains(answer, "travel") || !strings.Contains(answer, "finance") || strings.Contains(answer, "No agents were able") {
		t.Fatalf("answer %q: want a nothing-relevant answer naming travel and finance", answer)
	}
}
