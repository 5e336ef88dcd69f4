package llmtest

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/cmem/cmem/llm"
)

// NewsAgents are the six domain agents of the paper's first scenario
// (Table 3), offered to providers' Coordinate in tests.
var NewsAgents = []llm.AgentCard{
	{ID: "entertainment_agent", Description: "Specialist in entertainment news—films, TV, music, celebrity culture, and pop-culture trends."},
	{ID: "business_agent", Description: "Specialist in business news—markets, companies, economics, and finance."},
	{ID: "sports_agent", Description: "Specialist in sports news—games, scores, athletes, and tournament analysis."},
	{ID: "technology_agent", Description: "Specialist in technology news—gadgets, innovations, startups, and industry trends."},
	{ID: "health_agent", Description: "Specialist in health news—medical research, public health, wellness, and policy."},
	{ID: "science_agent", Description: "Specialist in science news—discoveries in physics, biology, environment, and research."},
}

// PaperTools are the tools of the paper's asymmetric scenario (Table 9),
// offered to providers' Answer in tests.
var PaperTools = []llm.Tool{
	{Name: "market_kb", Description: "Market trends and consumer data",
		Parameters: json.RawMessage(`{"type":"object","properties":{"query":{"type":"string"},"top_k":{"type":"integer","default":3}},"required":["query"]}`)},
	{Name: "finance_forecaster", Description: "Performs financial forecasting and ROI estimation",
		Parameters: json.RawMessage(`{"type":"object","properties":{"scenario":{"type":"string"},"years":{"type":"integer","default":3}},"required":["scenario","years"]}`)},
	{Name: "logistics_comparator", Description: "Compares distribution and vendor options for supply chain planning",
		Parameters: json.RawMessage(`{"type":"object","properties":{"question":{"type":"string"}},"required":["question"]}`)},
	{Name: "strategic_computation", Description: "Executes strategic cost-benefit calculations",
		Parameters: json.RawMessage(`{"type":"object","properties":{"expression":{"type":"string"}},"required":["expression"]}`)},
}

// ToolCall is one call FakeTools received, its arguments decoded.
type ToolCall struct {
	Tool string
	Args map[string]any
}

// FakeTools answers every call with a canned result, or fails; its Call
// is an llm.AnswerRequest's Call.
type FakeTools struct {
	Results map[string]string
	Fail    bool
	Calls   []ToolCall
}

// Call records the call and returns Results[tool], or an error when Fail
// is set or args are not a JSON object.
func (f *FakeTools) Call(_ context.Context, tool string, args json.RawMessage) (string, error) {
	var m map[string]any
	if err := json.Unmarshal(args, &m); err != nil {
		return "", err
	}
	f.Calls = append(f.Calls, ToolCall{tool, m})
	if f.Fail {
		return "", errors.New("tool down")
	}
	return f.Results[tool], nil
}
