package e2e_test

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/node"
	"github.com/cmem/cmem/node/nodetest"
)

const admin = nodetest.AdminToken

// world registers a small travel/finance setup: agents travel and finance,
// each with its own knowledge base.
func world(c *nodetest.Client) {
	c.Must(http.StatusCreated, "POST", "/v1/agents", admin, map[string]string{"id": "travel", "description": "travel destinations, cities, food and restaurants"})
	c.Must(http.StatusCreated, "POST", "/v1/agents", admin, map[string]string{"id": "finance", "description": "finance, budgets, costs and prices"})
	c.Must(http.StatusCreated, "POST", "/v1/resources", admin, map[string]any{"id": "guide", "kind": "knowledge_base", "description": "city guide about food and restaurants",
		"documents": []map[string]string{
			{"id": "lyon", "text": "Lyon is famous for its bouchons, traditional restaurants serving local food."},
			{"id": "rome", "text": "Rome is famous for its ancient ruins and carbonara."}}})
	c.Must(http.StatusCreated, "POST", "/v1/resources", admin, map[string]any{"id": "ledger", "kind": "knowledge_base", "description": "company budgets and prices",
		"documents": []map[string]string{{"id": "q3", "text": "The Q3 travel budget is 40000 euros."}}})
	c.Must(http.StatusOK, "PUT", "/v1/grants/agent-resource/travel/guide", admin, nil)
	c.Must(http.StatusOK, "PUT", "/v1/grants/agent-resource/finance/ledger", admin, nil)
}

func grantAgent(c *nodetest.Client, user, agent string) {
	c.Must(http.StatusOK, "PUT", "/v1/grants/user-agent/"+user+"/"+agent, admin, nil)
}

func ask(c *nodetest.Client, token, text string) nodetest.Response {
	r := c.Must(http.StatusOK, "POST", "/v1/queries", token, map[string]any{"text": text})
	if r.Body["status"] != "answered" {
		c.T.Fatalf("query %q: %s", text, r.Raw)
	}
	return r
}

// resourceCalls counts the ResourceCalled events of a user's queries.
func resourceCalls(t *testing.T, n *node.Node, user string) int {
	calls := 0
	for _, rec := range nodetest.Events(t, n, events.TypeResourceCalled) {
		p, _ := rec.Decode()
		if p.(*events.ResourceCalled).User == user {
			calls++
		}
	}
	return calls
}

func TestSharedMemorySavesResourceCalls(t *testing.T) {
	n, c := nodetest.StartClient(t, nil)
	world(c)
	alice, bob := c.User("alice", "user"), c.User("bob", "user")
	grantAgent(c, "alice", "travel")
	grantAgent(c, "bob", "travel")

	first := ask(c, alice, "What food is Lyon famous for?")
	if !strings.Contains(first.Body["answer"].(string), "bouchons") {
		t.Fatalf("alice's answer: %s", first.Raw)
	}
	second := ask(c, bob, "Which food is Lyon famous for?")
	if !strings.Contains(second.Body["answer"].(string), "bouchons") {
		t.Fatalf("bob's answer: %s", second.Raw)
	}
	a, b := resourceCalls(t, n, "alice"), resourceCalls(t, n, "bob")
	if a == 0 || b >= a {
		t.Fatalf("resource calls: alice %d, bob %d; bob should reuse alice's shared memory", a, b)
	}
	if len(second.Body["fragments_read"].([]any)) == 0 {
		t.Fatalf("bob's answer read no memory: %s", second.Raw)
	}
}

func TestNoAccessNoFactsAndRevokeIsFinal(t *testing.T) {
	n, c := nodetest.StartClient(t, nil)
	world(c)
	alice, carol, dave := c.User("alice", "user"), c.User("carol", "user"), c.User("dave", "user")
	grantAgent(c, "alice", "travel")
	grantAgent(c, "carol", "finance")
	grantAgent(c, "dave", "travel")
	grantAgent(c, "dave", "finance")
	ask(c, alice, "What food is Lyon famous for?")

	// carol cannot invoke travel: not its agent, not its memory.
	r := ask(c, carol, "What food is Lyon famous for?")
	if strings.Contains(string(r.Raw), "bouchons") {
		t.Fatalf("carol got travel facts: %s", r.Raw)
	}
	for _, s := range r.Body["steps"].([]any) {
		if s.(map[string]any)["agent"] == "travel" {
			t.Fatalf("carol was routed to travel: %s", r.Raw)
		}
	}
	v := c.Must(http.StatusOK, "POST", "/v1/memory/view", carol, map[string]any{"agent": "finance", "query": "Lyon food", "k_user": 50, "k_cross": 50})
	if strings.Contains(string(v.Raw), "bouchons") {
		t.Fatalf("carol's memory view holds travel facts: %s", v.Raw)
	}

	// dave learns about Lyon, then loses travel: the agent is never used
	// again for dave, and nothing derived from it reaches dave.
	ask(c, dave, "What food is Lyon famous for?")
	c.Must(http.StatusOK, "DELETE", "/v1/grants/user-agent/dave/travel", admin, nil)
	for _, q := range []string{"What food is Lyon famous for?", "Tell me about restaurants in Lyon and the travel budget"} {
		r := ask(c, dave, q)
		if strings.Contains(string(r.Raw), "bouchons") {
			t.Fatalf("after the revoke dave still got travel facts: %s", r.Raw)
		}
		for _, s := range r.Body["steps"].([]any) {
			if s.(map[string]any)["agent"] == "travel" {
				t.Fatalf("after the revoke dave was routed to travel: %s", r.Raw)
			}
		}
	}
	selected := 0
	for _, rec := range nodetest.Events(t, n, events.TypeAgentSelected) {
		p, _ := rec.Decode()
		if s := p.(*events.AgentSelected); s.User == "dave" && s.Agent == "travel" {
			selected++
		}
	}
	if selected != 1 {
		t.Fatalf("travel selected %d times for dave, want exactly once (before the revoke)", selected)
	}
}

// A knowledge base may read a server-side directory, but only inside the
// configured document root.
func TestKnowledgeBaseFromTheDocumentRoot(t *testing.T) {
	root := t.TempDir()
	if err := os.Mkdir(filepath.Join(root, "guide"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "guide", "lyon.txt"), []byte("Lyon is famous for its bouchons."), 0o644); err != nil {
		t.Fatal(err)
	}
	_, c := nodetest.StartClient(t, func(c *node.Config) { c.DocumentRoot = root })
	c.Must(http.StatusCreated, "POST", "/v1/resources", admin, map[string]any{"id": "guide", "kind": "knowledge_base", "description": "city guide food", "path": "guide"})
	c.Must(http.StatusBadRequest, "POST", "/v1/resources", admin, map[string]any{"id": "etc", "kind": "knowledge_base", "description": "x", "path": "/etc"})
	c.Must(http.StatusCreated, "POST", "/v1/agents", admin, map[string]string{"id": "travel", "description": "travel cities food"})
	c.Must(http.StatusOK, "PUT", "/v1/grants/agent-resource/travel/guide", admin, nil)
	alice := c.User("alice", "user")
	grantAgent(c, "alice", "travel")
	if r := ask(c, alice, "What food is Lyon famous for?"); !strings.Contains(r.Body["answer"].(string), "bouchons") {
		t.Fatalf("answer from the directory knowledge base: %s", r.Raw)
	}
}
