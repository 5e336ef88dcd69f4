package e2e_test

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/sashabaranov/go-openai"

	"github.com/cmem/cmem/llm/llmtest"
	"github.com/cmem/cmem/node"
	"github.com/cmem/cmem/node/nodetest"
)

// Every agent's system prompt and every resource's documents hold a marker
// ("zqa" + agent, "zqr" + resource): text that carries one derives from it.
var marker = regexp.MustCompile(`zq[ar][a-z0-9]+`)

// copycat is a scripted model that does what real models do, at its worst:
// every output — a subquery, a response, an extracted fragment, an answer —
// holds every marker of its whole context. It consults up to two agents per
// query, in the order they are offered, and has each agent call every tool
// it is offered before answering.
func copycat(req llmtest.ChatRequest) llmtest.Reply {
	var all strings.Builder
	for _, m := range req.Messages {
		all.WriteString(m.Content + " ")
	}
	seen := marker.FindAllString(all.String(), -1)
	slices.Sort(seen)
	copied := "facts " + strings.Join(slices.Compact(seen), " ")
	last := lastUser(req)
	switch {
	case strings.Contains(last, "Agents you may choose from"):
		offered := offeredAgents(last)
		asked := strings.Count(last, " was asked: ")
		if asked >= 2 || asked >= len(offered) {
			return llmtest.JSON(map[string]bool{"stop": true})
		}
		return llmtest.JSON(map[string]string{"agent": offered[asked], "subquery": copied})
	case strings.Contains(last, `{"fragments"`):
		return llmtest.JSON(map[string]any{"fragments": []map[string]string{{"key": copied, "value": copied}}})
	case len(req.Tools) > 0 && !hasToolResult(req):
		calls := make([]openai.ToolCall, 0, len(req.Tools))
		for i, tl := range req.Tools {
			calls = append(calls, llmtest.Call(fmt.Sprintf("c%d", i), tl.Function.Name, map[string]string{"query": copied}))
		}
		return llmtest.Calls(calls...)
	}
	return llmtest.Text(copied)
}

// leakNode starts a node on the scripted model chat and registers the
// leak world on it.
func leakNode(t *testing.T, chat func(llmtest.ChatRequest) llmtest.Reply) (*node.Node, *nodetest.Client, map[string]string) {
	srv := llmtest.NewServer(t)
	srv.HandleChat(chat)
	n := nodetest.Start(t, func(c *node.Config) {
		c.OpenAIBaseURL, c.ChatModel, c.EmbeddingModel, c.EmbeddingDims = srv.URL, "test-chat", "test-embed", 256
	})
	c := nodetest.NewClient(t, n)
	return n, c, leakWorld(c)
}

// leakWorld registers agents a0..a3 (system prompts with their markers),
// knowledge bases r0..r3 (documents with theirs) and users u0..u2.
func leakWorld(c *nodetest.Client) map[string]string {
	for i := range 4 {
		a, r := fmt.Sprintf("a%d", i), fmt.Sprintf("r%d", i)
		c.Must(http.StatusCreated, "POST", "/v1/agents", admin, map[string]string{"id": a, "description": "agent " + a, "system_prompt": "You are zqa" + a})
		c.Must(http.StatusCreated, "POST", "/v1/resources", admin, map[string]any{"id": r, "kind": "knowledge_base", "description": "facts " + r,
			"documents": []map[string]string{{"id": "d", "text": "facts about " + r + ": zqr" + r}}})
	}
	tokens := map[string]string{}
	for i := range 3 {
		u := fmt.Sprintf("u%d", i)
		tokens[u] = c.User(u, "user")
	}
	return tokens
}

// graphModel is the access graph as the test set it.
type graphModel struct{ ua, ar map[[2]string]bool }

func (g graphModel) agentsOf(u string) []string {
	var out []string
	for e, ok := range g.ua {
		if ok && e[0] == u {
			out = append(out, e[1])
		}
	}
	slices.Sort(out)
	return out
}

// leaks lists the markers of text that u may not see: through agent a
// (a memory view), or, with a empty, delivered to u (answers, steps, bus).
func (g graphModel) leaks(u, a, text string) []string {
	var bad []string
	for _, m := range marker.FindAllString(text, -1) {
		id := m[3:]
		switch m[2] {
		case 'a':
			if !g.ua[[2]string{u, id}] {
				bad = append(bad, m)
			}
		case 'r':
			reach := []string{a}
			if a == "" {
				reach = g.agentsOf(u)
			}
			if !slices.ContainsFunc(reach, func(x string) bool { return g.ar[[2]string{x, id}] }) {
				bad = append(bad, m)
			}
		}
	}
	return bad
}

// runLeakProbe drives a random access graph with churn and the copycat
// model, checking every text that reaches a user against the graph at that
// moment: answers, steps, later GETs, memory views, bus answers. It returns
// the leaks it saw.
func runLeakProbe(t *testing.T, seed uint64, direct bool, mode string) []string {
	n, c, tokens := leakNode(t, copycat)
	if mode != "" {
		c.Must(http.StatusCreated, "POST", "/v1/policies", admin, map[string]any{"target": "coordination", "kind": mode,
			"scope": map[string]string{}, "config": map[string]any{"participants": "all"}})
	}
	if direct {
		// Labels off for memory: fragments keep only their writer's own
		// provenance, which is the leak labels close.
		c.Must(http.StatusCreated, "POST", "/v1/policies", admin, map[string]any{"target": "provenance", "kind": "direct", "scope": map[string]string{}})
	}
	g := graphModel{ua: map[[2]string]bool{}, ar: map[[2]string]bool{}}
	set := func(kind string, from, to string, on bool) {
		m := map[string]map[[2]string]bool{"user-agent": g.ua, "agent-resource": g.ar}[kind]
		method := map[bool]string{true: "PUT", false: "DELETE"}[on]
		c.Must(http.StatusOK, method, "/v1/grants/"+kind+"/"+from+"/"+to, admin, nil)
		m[[2]string{from, to}] = on
	}
	// The payroll scene, then a random graph: u0 asks a0 (with r0) and a1;
	// u1 may invoke only a1.
	set("agent-resource", "a0", "r0", true)
	set("agent-resource", "a1", "r1", true)
	set("user-agent", "u0", "a0", true)
	set("user-agent", "u0", "a1", true)
	set("user-agent", "u1", "a1", true)

	var mu sync.Mutex
	var leaks []string
	checked := 0
	report := func(where, u, a, text string) {
		mu.Lock()
		checked += len(marker.FindAllString(text, -1))
		mu.Unlock()
		if bad := g.leaks(u, a, text); len(bad) > 0 {
			mu.Lock()
			leaks = append(leaks, fmt.Sprintf("%s to %s: %v", where, u, bad))
			mu.Unlock()
		}
	}
	// Bus answers are checked against the graph when they arrive; the graph
	// does not change while a query runs.
	var busMu sync.Mutex
	for u, tok := range tokens {
		// The bus authenticates against this process's projection of the
		// registrations, which may trail the HTTP answer by a moment.
		var nc *nats.Conn
		var err error
		for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
			if nc, err = nats.Connect(n.Log.ClientURL(), nats.Token(tok), nats.CustomInboxPrefix("_INBOX."+u)); err == nil || time.Now().After(deadline) {
				break
			}
		}
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(nc.Close)
		if _, err := nc.Subscribe("cmem.answers."+u, func(m *nats.Msg) {
			busMu.Lock()
			defer busMu.Unlock()
			report("bus answer", u, "", string(m.Data))
		}); err != nil {
			t.Fatal(err)
		}
	}
	rng := rand.New(rand.NewPCG(seed, 7))
	queries := map[string][]string{}
	users := []string{"u0", "u1", "u2"}
	for round := range 12 {
		u := users[round%3]
		if round == 0 {
			u = "u0"
		}
		busMu.Lock()
		r := c.Must(http.StatusOK, "POST", "/v1/queries", tokens[u], map[string]any{"text": fmt.Sprintf("facts please, round %d", round)})
		report("answer", u, "", string(r.Raw))
		busMu.Unlock()
		queries[u] = append(queries[u], r.Body["id"].(string))
		// Every memory view and every earlier answer, as the graph is now.
		for _, v := range users {
			for _, a := range g.agentsOf(v) {
				view := c.Must(http.StatusOK, "POST", "/v1/memory/view", tokens[v], map[string]any{"agent": a, "query": "facts", "k_user": 100, "k_cross": 100})
				report("memory view through "+a, v, a, string(view.Raw))
			}
			for _, id := range queries[v] {
				got := c.Must(http.StatusOK, "GET", "/v1/queries/"+id, tokens[v], nil)
				report("GET "+id, v, "", string(got.Raw))
			}
		}
		// Churn: flip two random edges.
		for range 2 {
			if rng.IntN(2) == 0 {
				e := [2]string{users[rng.IntN(3)], fmt.Sprintf("a%d", rng.IntN(4))}
				set("user-agent", e[0], e[1], !g.ua[e])
			} else {
				e := [2]string{fmt.Sprintf("a%d", rng.IntN(4)), fmt.Sprintf("r%d", rng.IntN(4))}
				set("agent-resource", e[0], e[1], !g.ar[e])
			}
		}
	}
	time.Sleep(500 * time.Millisecond) // let the last bus answers arrive
	if !direct {
		v := c.Must(http.StatusOK, "GET", "/v1/audit/violations", admin, nil)
		var rows []any
		if err := json.Unmarshal(v.Raw, &rows); err != nil || len(rows) != 0 {
			t.Errorf("the audit reports violations: %s", v.Raw)
		}
	}
	// How big labels get: the largest label of any delivery, in bytes.
	largest, sizes := 0, 0
	for _, rec := range nodetest.Events(t, n, "cmem.query.delivered") {
		var d struct {
			Label json.RawMessage `json:"label"`
		}
		if err := json.Unmarshal(rec.Data, &d); err == nil {
			largest, sizes = max(largest, len(d.Label)), sizes+1
		}
	}
	t.Logf("%d deliveries, largest label %d bytes", sizes, largest)
	busMu.Lock()
	defer busMu.Unlock()
	mu.Lock()
	defer mu.Unlock()
	t.Logf("seed %d direct=%v mode=%q: %d markers delivered and checked, %d leaks", seed, direct, mode, checked, len(leaks))
	if checked < 50 {
		t.Fatalf("only %d markers reached users: the probe exercised too little", checked)
	}
	return slices.Clone(leaks)
}

// An attacker's model copies everything it sees into every output. With
// labels, nothing derived from an agent or resource outside a user's
// access ever reaches that user, through any path; with fragments keeping
// only their writer's provenance (direct), the same run leaks — so this
// test can fail.
func TestCopyingModelLeaksNothing(t *testing.T) {
	for _, seed := range []uint64{1, 2} {
		if leaks := runLeakProbe(t, seed, false, ""); len(leaks) > 0 {
			t.Fatalf("seed %d: %d leaks with labels, e.g. %v", seed, len(leaks), leaks[:min(5, len(leaks))])
		}
	}
	if leaks := runLeakProbe(t, 1, true, ""); len(leaks) == 0 {
		t.Fatal("with direct provenance the copying model leaked nothing: the probe cannot see a leak")
	}
}

// In every coordination scheme agents see other agents' outputs (the
// previous answer, the first layer, the shared pool); each such message
// carries its label, so nothing crosses a permission boundary — and with
// direct provenance the same run leaks, so the probe can see it.
func TestCopyingModelLeaksNothingInAnyCoordinationScheme(t *testing.T) {
	for _, mode := range []string{"decentralized", "layered", "shared_pool"} {
		t.Run(mode, func(t *testing.T) {
			if leaks := runLeakProbe(t, 3, false, mode); len(leaks) > 0 {
				t.Fatalf("%d leaks with labels, e.g. %v", len(leaks), leaks[:min(5, len(leaks))])
			}
			if leaks := runLeakProbe(t, 3, true, mode); len(leaks) == 0 {
				t.Fatal("with direct provenance the copying model leaked nothing: the probe cannot see a leak")
			}
		})
	}
}

// A revoke while a tool call is in flight: the answer delivered afterwards
// holds nothing from the revoked agent or resource and says why, and every
// later GET says the same.
func TestRevokeDuringSlowToolCall(t *testing.T) {
	for name, tc := range map[string]struct {
		revoke    string
		forbidden []string
	}{
		"resource": {"/v1/grants/agent-resource/a0/slow", []string{"zqrslow"}},
		"agent":    {"/v1/grants/user-agent/u0/a0", []string{"zqrslow", "zqaa0"}},
	} {
		t.Run(name, func(t *testing.T) {
			sc := startSlowQuery(t, copycat, nil)
			n, c, id, tokens := sc.n, sc.c, sc.id, sc.tokens
			c.Must(http.StatusOK, "DELETE", tc.revoke, admin, nil)
			close(sc.release)
			first := c.Must(http.StatusOK, "GET", "/v1/queries/"+id+"?wait=30", tokens["u0"], nil)
			for i, r := range []nodetest.Response{first, c.Must(http.StatusOK, "GET", "/v1/queries/"+id, tokens["u0"], nil)} {
				for _, m := range tc.forbidden {
					if strings.Contains(string(r.Raw), m) {
						t.Fatalf("delivery %d holds %s, content of the revoked %s: %s", i, m, name, r.Raw)
					}
				}
				step := r.Body["steps"].([]any)[0].(map[string]any)
				why, _ := step["withheld"].(string)
				if !strings.Contains(why, "a0") && !strings.Contains(why, "slow") {
					t.Fatalf("delivery %d: step 1 is not withheld with a reason naming what was revoked: %s", i, r.Raw)
				}
			}
			// The delivery is recorded with what was withheld.
			delivered := nodetest.Events(t, n, "cmem.query.delivered")
			if len(delivered) < 2 || !strings.Contains(string(delivered[len(delivered)-1].Data), "withheld") {
				t.Fatalf("deliveries recorded: %d, last %s", len(delivered), delivered[len(delivered)-1].Data)
			}
		})
	}
}

func httptestServer(t *testing.T, h http.HandlerFunc) string {
	s := httptest.NewServer(h)
	t.Cleanup(s.Close)
	return s.URL
}
