package e2e_test

import (
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/sashabaranov/go-openai"

	"github.com/cmem/cmem/llm/llmtest"
	"github.com/cmem/cmem/node"
	"github.com/cmem/cmem/node/nodetest"
)

func lastUser(req llmtest.ChatRequest) string {
	for i := len(req.Messages) - 1; i >= 0; i-- {
		if m := req.Messages[i]; m.Role == openai.ChatMessageRoleUser {
			return m.Content
		}
	}
	return ""
}

func hasToolResult(req llmtest.ChatRequest) bool {
	return slices.ContainsFunc(req.Messages, func(m openai.ChatCompletionMessage) bool { return m.Role == openai.ChatMessageRoleTool })
}

// offeredAgents parses the coordinator prompt's agent list ("- id: desc").
func offeredAgents(prompt string) []string {
	var out []string
	_, list, _ := strings.Cut(prompt, "Agents you may choose from")
	list, _, _ = strings.Cut(list, "\n\n")
	for _, line := range strings.Split(list, "\n") {
		if id, _, ok := strings.Cut(strings.TrimPrefix(line, "- "), ":"); ok && strings.HasPrefix(line, "- ") {
			out = append(out, id)
		}
	}
	slices.Sort(out)
	return out
}

func startWithModel(t *testing.T, srv *llmtest.Server) *nodetest.Client {
	n := nodetest.Start(t, func(c *node.Config) {
		c.OpenAIBaseURL, c.ChatModel, c.EmbeddingModel, c.EmbeddingDims = srv.URL, "test-chat", "test-embed", 256
	})
	return nodetest.NewClient(t, n)
}

// The coordinator is shown exactly A(u,t) and each agent exactly R(a,t),
// both as of the moment of the request: a revoke during round 1 changes
// round 2's offer, and a tool revoked after it was offered cannot be called.
func TestModelSeesExactlyTheCurrentGraph(t *testing.T) {
	srv := llmtest.NewServer(t)
	var mu sync.Mutex
	var coordinator [][]string
	var tools [][]string
	var c *nodetest.Client
	srv.HandleChat(func(req llmtest.ChatRequest) llmtest.Reply {
		mu.Lock()
		defer mu.Unlock()
		last := lastUser(req)
		switch {
		case strings.Contains(last, "Agents you may choose from"):
			coordinator = append(coordinator, offeredAgents(last))
			if len(coordinator) <= 2 {
				return llmtest.JSON(map[string]string{"agent": "travel", "subquery": "Lyon food"})
			}
			return llmtest.JSON(map[string]bool{"stop": true})
		case req.Tools != nil || len(tools) < len(coordinator):
			if !hasToolResult(req) {
				var names []string
				for _, tl := range req.Tools {
					names = append(names, tl.Function.Name)
				}
				slices.Sort(names)
				tools = append(tools, names)
				if len(tools) == 1 {
					// Round 1, after the offer: revoke writer from alice and
					// the guide from travel. The call below must be refused.
					c.Must(http.StatusOK, "DELETE", "/v1/grants/user-agent/alice/writer", admin, nil)
					c.Must(http.StatusOK, "DELETE", "/v1/grants/agent-resource/travel/guide", admin, nil)
					return llmtest.Calls(llmtest.Call("c1", "guide", map[string]string{"query": "Lyon food"}))
				}
			}
			return llmtest.Text("Lyon: bouchons.")
		case strings.Contains(last, `{"fragments"`):
			return llmtest.JSON(map[string]any{"fragments": []map[string]string{{"key": "Lyon food", "value": "bouchons"}}})
		}
		return llmtest.Text("Lyon: bouchons.")
	})
	c = startWithModel(t, srv)
	world(c)
	c.Must(http.StatusCreated, "POST", "/v1/agents", admin, map[string]string{"id": "writer", "description": "writes"})
	alice := c.User("alice", "user")
	for _, a := range []string{"travel", "finance", "writer"} {
		grantAgent(c, "alice", a)
	}
	r := ask(c, alice, "What food is Lyon famous for?")

	mu.Lock()
	defer mu.Unlock()
	if len(coordinator) < 2 || !slices.Equal(coordinator[0], []string{"finance", "travel", "writer"}) || !slices.Equal(coordinator[1], []string{"finance", "travel"}) {
		t.Fatalf("coordinator offers per round: %v; want A(u,t) before and after the revoke", coordinator)
	}
	if len(tools) < 2 || !slices.Equal(tools[0], []string{"guide"}) || len(tools[1]) != 0 {
		t.Fatalf("tools per agent turn: %v; want R(travel,t) before and after the revoke", tools)
	}
	steps := r.Body["steps"].([]any)
	call := steps[0].(map[string]any)["resource_calls"].([]any)[0].(map[string]any)
	if !strings.Contains(call["error"].(string), "revoked") {
		t.Fatalf("a call after the revoke must be refused: %v", call)
	}
}

func TestProviderErrorsEndTheQueryCleanly(t *testing.T) {
	for name, reply := range map[string]llmtest.Reply{
		"server error": llmtest.Status(http.StatusInternalServerError, "boom"),
		"bad request":  llmtest.Status(http.StatusBadRequest, "no"),
		"garbage":      llmtest.Garbage(),
		"unoffered":    llmtest.JSON(map[string]string{"agent": "ghost", "subquery": "x"}),
	} {
		t.Run(name, func(t *testing.T) {
			srv := llmtest.NewServer(t)
			srv.HandleChat(func(llmtest.ChatRequest) llmtest.Reply { return reply })
			c := startWithModel(t, srv)
			world(c)
			alice := c.User("alice", "user")
			grantAgent(c, "alice", "travel")
			r := c.Must(http.StatusOK, "POST", "/v1/queries", alice, map[string]any{"text": "What food is Lyon famous for?"})
			if r.Body["status"] != "failed" || !strings.HasPrefix(r.Body["error"].(string), "coordinator") {
				t.Fatalf("want a failed query at the coordinator: %s", r.Raw)
			}
		})
	}
}

// History is memory too: an earlier answer that needed travel is shown to
// the coordinator only while the user may still invoke travel.
func TestHistoryIsFilteredByCurrentAccess(t *testing.T) {
	srv := llmtest.NewServer(t)
	var mu sync.Mutex
	var prompts []string
	mimic := llmtest.Mimic()
	srv.HandleChat(func(req llmtest.ChatRequest) llmtest.Reply {
		if last := lastUser(req); strings.Contains(last, "Agents you may choose from") {
			mu.Lock()
			prompts = append(prompts, last)
			mu.Unlock()
		}
		return mimic(req)
	})
	c := startWithModel(t, srv)
	world(c)
	dave := c.User("dave", "user")
	grantAgent(c, "dave", "travel")
	grantAgent(c, "dave", "finance")
	ask(c, dave, "What food is Lyon famous for?")
	ask(c, dave, "What is the travel budget?")
	mu.Lock()
	withTravel := prompts[len(prompts)-1]
	mu.Unlock()
	if !strings.Contains(withTravel, "Conversation history") || !strings.Contains(withTravel, "Lyon") {
		t.Fatalf("while dave may invoke travel, its history must be shown:\n%s", withTravel)
	}
	c.Must(http.StatusOK, "DELETE", "/v1/grants/user-agent/dave/travel", admin, nil)
	ask(c, dave, "What is the travel budget?")
	mu.Lock()
	after := prompts[len(prompts)-1]
	mu.Unlock()
	if strings.Contains(after, "Lyon") || strings.Contains(after, "bouchons") {
		t.Fatalf("after the revoke the coordinator still saw travel's history:\n%s", after)
	}
}
