package offline_test

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/cmem/cmem/embedding/hashing"
	"github.com/cmem/cmem/llm"
	"github.com/cmem/cmem/llm/llmtest"
	"github.com/cmem/cmem/llm/offline"
)

// With the hashing embedder the provider trusts the view's scores.
func TestOfflineAnswerFromMemoryCallsNoTool(t *testing.T) {
	p := newOffline(t, offline.Config{Embedder: hashing.New(1024)})
	tools := &llmtest.FakeTools{}
	res, err := p.Answer(context.Background(), llm.AnswerRequest{
		AgentID: "market_agent", Subquery: "consumer trends for smart home devices",
		Memory: []llm.MemoryItem{
			{ID: "m1", Key: "smart home trends", Value: "Privacy features drive smart home purchases.", Score: 0.82},
			{ID: "m2", Key: "pasta", Value: "Pasta needs salted water.", Score: 0.1},
			{ID: "m3", Key: "smart home demand", Value: "Demand for smart speakers grew 20 percent.", Score: 0.7},
		},
		Tools: llmtest.PaperTools, Call: tools.Call, MaxToolCalls: 3, Coverage: 0.6,
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(tools.Calls) != 0 || len(res.Calls) != 0 {
		t.Fatalf("memory covered the subquery, yet tools were called: %v", tools.Calls)
	}
	want := "Privacy features drive smart home purchases.\nDemand for smart speakers grew 20 percent."
	if res.Response != want {
		t.Fatalf("response %q, want %q", res.Response, want)
	}
}

func TestOfflineAnswerCallsMostRelevantTool(t *testing.T) {
	results := map[string]string{
		"market_kb":             "Smart home device demand rose in privacy regulated markets. Unrelated filler about weather.",
		"finance_forecaster":    "ROI over three years is 14 percent.",
		"logistics_comparator":  "Vendor B ships fastest.",
		"strategic_computation": "70000",
	}
	tests := []struct {
		subquery string
		tool     string
		args     map[string]any
		answer   string
	}{
		{"Which consumer trends shape the smart home market?", "market_kb",
			map[string]any{"query": "Which consumer trends shape the smart home market?"},
			"Smart home device demand rose in privacy regulated markets."},
		{"Forecast the ROI of the financial plan", "finance_forecaster",
			map[string]any{"scenario": "Forecast the ROI of the financial plan", "years": float64(3)},
			"ROI over three years is 14 percent."},
		{"Net benefit is (250000 - 40000) / 3, compute it", "strategic_computation",
			map[string]any{"expression": "(250000 - 40000) / 3"}, "70000"},
	}
	p := newOffline(t, offline.Config{})
	for _, tc := range tests {
		tools := &llmtest.FakeTools{Results: results}
		res, err := p.Answer(context.Background(), llm.AnswerRequest{
			Subquery: tc.subquery, Tools: llmtest.PaperTools, Call: tools.Call, MaxToolCalls: 2, Coverage: 0.6,
			Memory: []llm.MemoryItem{{Key: "old", Value: "Something barely related.", Score: 0.2}},
		})
		if err != nil {
			t.Fatal(err)
		}
		if len(tools.Calls) != 1 || tools.Calls[0].Tool != tc.tool || !reflect.DeepEqual(tools.Calls[0].Args, tc.args) {
			t.Fatalf("%q: calls %+v, want one call of %s with %v", tc.subquery, tools.Calls, tc.tool, tc.args)
		}
		if len(res.Calls) != 1 || res.Calls[0].Tool != tc.tool || res.Calls[0].Result != results[tc.tool] {
			t.Fatalf("%q: reported calls %+v", tc.subquery, res.Calls)
		}
		if res.Response != tc.answer {
			t.Fatalf("%q: response %q, want %q", tc.subquery, res.Response, tc.answer)
		}
	}
}

func TestOfflineAnswerBudgetAndFailures(t *testing.T) {
	p := newOffline(t, offline.Config{})
	tools := &llmtest.FakeTools{Fail: true}
	res, err := p.Answer(context.Background(), llm.AnswerRequest{
		Subquery: "consumer market trends", Tools: llmtest.PaperTools, Call: tools.Call, MaxToolCalls: 2,
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(tools.Calls) != 2 || len(res.Calls) != 2 || res.Calls[0].Err == nil {
		t.Fatalf("failing tools: %d calls made, %+v reported; want the 2 allowed, with errors", len(tools.Calls), res.Calls)
	}
	if tools.Calls[0].Tool != "market_kb" || tools.Calls[1].Tool == "market_kb" {
		t.Fatalf("a failed tool must lead to the next one: %+v", tools.Calls)
	}
	if !strings.Contains(res.Response, "No information") {
		t.Fatalf("response %q, want the nothing-found answer", res.Response)
	}
	tools = &llmtest.FakeTools{}
	if _, err := p.Answer(context.Background(), llm.AnswerRequest{Subquery: "x trends", Tools: llmtest.PaperTools, Call: tools.Call}); err != nil || len(tools.Calls) != 0 {
		t.Fatalf("MaxToolCalls 0: %d calls, %v", len(tools.Calls), err)
	}
}
