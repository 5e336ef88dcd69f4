package llmtest

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/cmem/cmem/llm"
)

// Agents and tools the contract offers; the query below is clearly about
// sports.
var (
	contractAgents = []llm.AgentCard{
		{ID: "finance_agent", Description: "Performs financial modeling, revenue forecasts and cost projections."},
		{ID: "sports_agent", Description: "Specialist in sports news: football games, match scores, athletes and tournaments."},
		{ID: "health_agent", Description: "Specialist in health news: medical research, public health and wellness."},
	}
	contractQuery = "Which team won the football match last night and what was the final score?"
	contractTools = []llm.Tool{
		{Name: "sports_kb", Description: "Search sports news articles about football matches and scores.",
			Parameters: json.RawMessage(`{"type":"object","properties":{"query":{"type":"string"}},"required":["query"]}`)},
		{Name: "calculator", Description: "Evaluates arithmetic expressions.",
			Parameters: json.RawMessage(`{"type":"object","properties":{"expression":{"type":"string"}},"required":["expression"]}`)},
	}
)

// RunProviderContract checks the behaviour every llm.Provider shares:
// Coordinate returns only offered agents or Stop (and stops with none
// offered or rounds exhausted); Answer calls only offered tools, through
// req.Call, within MaxToolCalls; Extract returns non-empty keys and values
// and keeps user ids and e-mails out of the shared tier; Transform
// redacts by rule and refuses unknown modes; Aggregate always answers;
// a done context is an error wrapping llm.ErrProvider.
func RunProviderContract(t *testing.T, p llm.Provider) {
	t.Helper()
	ctx := context.Background()

	t.Run("name", func(t *testing.T) {
		if p.Name() == "" {
			t.Fatal("Name is empty")
		}
	})

	t.Run("coordinate picks an offered agent", func(t *testing.T) {
		d, err := p.Coordinate(ctx, llm.CoordinateRequest{Query: contractQuery, Agents: contractAgents, Round: 1, MaxRounds: 3})
		if err != nil {
			t.Fatal(err)
		}
		if d.Stop || !offeredAgent(contractAgents, d.Agent) || strings.TrimSpace(d.Subquery) == "" {
			t.Fatalf("decision %+v: want an offered agent and a subquery", d)
		}
	})

	t.Run("coordinate never returns an agent not offered", func(t *testing.T) {
		// The relevant agent is withheld: any pick must still be offered.
		offered := []llm.AgentCard{contractAgents[0], contractAgents[2]}
		d, err := p.Coordinate(ctx, llm.CoordinateRequest{Query: contractQuery, Agents: offered, Round: 1, MaxRounds: 3})
		if err != nil && !errors.Is(err, llm.ErrProvider) {
			t.Fatalf("error %v does not wrap ErrProvider", err)
		}
		if err == nil && !d.Stop && !offeredAgent(offered, d.Agent) {
			t.Fatalf("decision %+v names an agent not offered", d)
		}
	})

	t.Run("coordinate stops", func(t *testing.T) {
		for name, req := range map[string]llm.CoordinateRequest{
			"no agents":        {Query: contractQuery, Round: 1, MaxRounds: 3},
			"rounds exhausted": {Query: contractQuery, Agents: contractAgents, Round: 4, MaxRounds: 3},
		} {
			d, err := p.Coordinate(ctx, req)
			if err != nil || !d.Stop {
				t.Errorf("%s: decision %+v, err %v; want stop", name, d, err)
			}
		}
	})

	t.Run("answer calls only offered tools within budget", func(t *testing.T) {
		for _, budget := range []int{0, 1, 2} {
			rec := &recorder{}
			res, err := p.Answer(ctx, llm.AnswerRequest{
				AgentID: "sports_agent", Subquery: contractQuery, Tools: contractTools,
				Call: rec.call, MaxToolCalls: budget, Coverage: 0.9,
			})
			if err != nil {
				t.Fatalf("budget %d: %v", budget, err)
			}
			names := rec.names()
			if len(names) > budget || len(res.Calls) != len(names) {
				t.Fatalf("budget %d: %d calls made, %d reported", budget, len(names), len(res.Calls))
			}
			for i, n := range names {
				if !offeredTool(contractTools, n) || res.Calls[i].Tool != n {
					t.Fatalf("budget %d: call %d to %q (reported %q)", budget, i, n, res.Calls[i].Tool)
				}
			}
			if budget > 0 && len(names) == 0 {
				t.Fatalf("budget %d, empty memory: no tool called", budget)
			}
			if strings.TrimSpace(res.Response) == "" {
				t.Fatalf("budget %d: empty response", budget)
			}
		}
	})

	t.Run("extract returns non-empty fragments without user data in shared", func(t *testing.T) {
		for _, tier := range []string{llm.TierPrivate, llm.TierShared} {
			kvs, err := p.Extract(ctx, llm.ExtractRequest{
				Tier: tier, Query: "What did the team report about quarterly revenue?",
				Response: "Quarterly revenue rose 12 percent, reported by alice_w (alice@example.com).",
				Users:    []string{"alice_w"},
			})
			if err != nil {
				t.Fatalf("%s: %v", tier, err)
			}
			if len(kvs) == 0 {
				t.Fatalf("%s: no fragment", tier)
			}
			for _, kv := range kvs {
				if strings.TrimSpace(kv.Key) == "" || strings.TrimSpace(kv.Value) == "" {
					t.Fatalf("%s: blank key or value %+v", tier, kv)
				}
				if tier == llm.TierShared && (strings.Contains(kv.Key+kv.Value, "alice_w") || strings.Contains(kv.Value, "@example.com")) {
					t.Fatalf("shared fragment leaks user data: %+v", kv)
				}
			}
		}
		if _, err := p.Extract(ctx, llm.ExtractRequest{Tier: "public", Query: "q", Response: "r"}); !errors.Is(err, llm.ErrProvider) {
			t.Fatalf("unknown tier: err %v, want ErrProvider", err)
		}
	})

	t.Run("transform", func(t *testing.T) {
		out, err := p.Transform(ctx, llm.ModeRedact, "Mail bob@example.com or call +44 20 7946 0958.")
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(out, "bob@example.com") || strings.Contains(out, "7946") {
			t.Fatalf("redact left %q", out)
		}
		if _, err := p.Transform(ctx, "shout", "hello"); !errors.Is(err, llm.ErrProvider) {
			t.Fatalf("unknown mode: err %v, want ErrProvider", err)
		}
	})

	t.Run("aggregate always answers", func(t *testing.T) {
		for _, turns := range [][]llm.Turn{nil, {{Agent: "sports_agent", Subquery: contractQuery, Response: "Arsenal won 2-1."}}} {
			out, err := p.Aggregate(ctx, llm.AggregateRequest{Query: contractQuery, Turns: turns})
			if err != nil || strings.TrimSpace(out) == "" {
				t.Fatalf("%d turns: %q, %v", len(turns), out, err)
			}
		}
	})

	t.Run("done context", func(t *testing.T) {
		cctx, cancel := context.WithCancel(ctx)
		cancel()
		_, err := p.Coordinate(cctx, llm.CoordinateRequest{Query: contractQuery, Agents: contractAgents, Round: 1, MaxRounds: 3})
		if !errors.Is(err, llm.ErrProvider) || !errors.Is(err, context.Canceled) {
			t.Fatalf("err %v, want ErrProvider and context.Canceled", err)
		}
	})
}

func offeredAgent(agents []llm.AgentCard, id string) bool {
	for _, a := range agents {
		if a.ID == id {
			return true
		}
	}
	return false
}

func offeredTool(tools []llm.Tool, name string) bool {
	for _, t := range tools {
		if t.Name == name {
			return true
		}
	}
	return false
}

// recorder is an AnswerRequest.Call that remembers what it was asked.
type recorder struct {
	mu    sync.Mutex
	calls []string
}

func (r *recorder) call(_ context.Context, tool string, _ json.RawMessage) (string, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.calls = append(r.calls, tool)
	return "Arsenal beat Chelsea 2-1 in last night's football match.", nil
}

func (r *recorder) names() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.calls...)
}
