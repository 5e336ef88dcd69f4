package offline_test

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/cmem/cmem/llm"
	"github.com/cmem/cmem/llm/llmtest"
	"github.com/cmem/cmem/llm/offline"
)

func newOffline(t *testing.T, cfg offline.Config) *offline.Provider {
	t.Helper()
	p, err := offline.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestOfflineContract(t *testing.T) {
	llmtest.RunProviderContract(t, newOffline(t, offline.Config{}))
}

func TestOfflineRoutesByDescription(t *testing.T) {
	p := newOffline(t, offline.Config{})
	tests := map[string]string{
		"What were the box office results for new films and music albums?":   "entertainment_agent",
		"How did stock markets and company earnings move this week?":         "business_agent",
		"Which athletes won their games in the tournament?":                  "sports_agent",
		"Which gadgets did AI startups launch?":                              "technology_agent",
		"What does the latest medical research say about public health?":     "health_agent",
		"Which discoveries in physics and biology changed the environment?":  "science_agent",
		"  which ATHLETES won their GAMES in the tournament??  ":             "sports_agent",
		"Give me the tournament scores of the athletes, and the game recap.": "sports_agent",
	}
	for q, want := range tests {
		d, err := p.Coordinate(context.Background(), llm.CoordinateRequest{Query: q, Agents: llmtest.NewsAgents, Round: 1, MaxRounds: 4})
		if err != nil {
			t.Fatal(err)
		}
		if d.Agent != want || d.Stop {
			t.Errorf("%q routed to %+v, want %s", q, d, want)
		}
	}
}

// A two-domain query is split: each round takes the sentence the chosen
// agent can serve, the next round routes what the responses left open,
// and the query stops once it is covered.
func TestOfflineMultiRound(t *testing.T) {
	p := newOffline(t, offline.Config{})
	ctx := context.Background()
	req := llm.CoordinateRequest{
		Query:  "How did stock markets and company earnings move? Which athletes won the tournament games?",
		Agents: llmtest.NewsAgents, Round: 1, MaxRounds: 5,
	}
	want := map[string]string{
		"business_agent": "How did stock markets and company earnings move?",
		"sports_agent":   "Which athletes won the tournament games?",
	}
	answers := map[string]string{
		"business_agent": "Stock markets rose as company earnings beat forecasts; the move was broad.",
		"sports_agent":   "Two athletes won the tournament games.",
	}
	for round := 1; round <= 2; round++ {
		req.Round = round
		d, err := p.Coordinate(ctx, req)
		if err != nil {
			t.Fatal(err)
		}
		if sub, ok := want[d.Agent]; !ok || d.Subquery != sub {
			t.Fatalf("round %d: %+v, want one of %v with its own sentence", round, d, want)
		}
		delete(want, d.Agent)
		req.Turns = append(req.Turns, llm.Turn{Agent: d.Agent, Subquery: d.Subquery, Response: answers[d.Agent]})
	}
	req.Round = 3
	d3, err := p.Coordinate(ctx, req)
	if err != nil || !d3.Stop {
		t.Fatalf("round 3: %+v %v, want stop (query covered)", d3, err)
	}
}

func TestOfflineStops(t *testing.T) {
	p := newOffline(t, offline.Config{})
	sportsQ := "Which athletes won their games in the tournament?"
	tests := map[string]llm.CoordinateRequest{
		"no agents":        {Query: sportsQ, Round: 1},
		"round > max":      {Query: sportsQ, Agents: llmtest.NewsAgents, Round: 3, MaxRounds: 2},
		"turns reach max":  {Query: sportsQ, Agents: llmtest.NewsAgents, Round: 1, MaxRounds: 1, Turns: []llm.Turn{{Agent: "health_agent"}}},
		"all agents used":  {Query: sportsQ, Agents: llmtest.NewsAgents[2:3], Round: 2, Turns: []llm.Turn{{Agent: "sports_agent", Response: "no idea"}}},
		"no content words": {Query: "What is it, and how?", Agents: llmtest.NewsAgents, Round: 1},
		"nobody relevant":  {Query: "Explain lattice quantum chromodynamics", Agents: llmtest.NewsAgents[:2], Round: 1},
		"covered": {Query: sportsQ, Agents: llmtest.NewsAgents, Round: 2,
			Turns: []llm.Turn{{Agent: "business_agent", Response: "The athletes won their games; the tournament ended."}}},
	}
	for name, req := range tests {
		d, err := p.Coordinate(context.Background(), req)
		if err != nil || !d.Stop {
			t.Errorf("%s: %+v, %v; want stop", name, d, err)
		}
	}
	// Control: the same sports query is routed when nothing stops it.
	d, _ := p.Coordinate(context.Background(), llm.CoordinateRequest{Query: sportsQ, Agents: llmtest.NewsAgents, Round: 1, MaxRounds: 2})
	if d.Stop {
		t.Fatal("control query stopped")
	}
}

func TestOfflineDeterministic(t *testing.T) {
	run := func() (llm.Decision, llm.AnswerResult, string) {
		p := newOffline(t, offline.Config{})
		ctx := context.Background()
		d, _ := p.Coordinate(ctx, llm.CoordinateRequest{Query: "Which athletes won? How did markets move?", Agents: llmtest.NewsAgents, Round: 1})
		tools := &llmtest.FakeTools{Results: map[string]string{"market_kb": "Markets moved up. Athletes won. Both happened."}}
		a, _ := p.Answer(ctx, llm.AnswerRequest{Subquery: "market trends", Tools: llmtest.PaperTools, Call: tools.Call, MaxToolCalls: 1})
		g, _ := p.Aggregate(ctx, llm.AggregateRequest{Turns: []llm.Turn{{Response: a.Response}, {Response: "Athletes won."}}})
		return d, a, g
	}
	d1, a1, g1 := run()
	for range 5 {
		d2, a2, g2 := run()
		if d1 != d2 || !reflect.DeepEqual(a1, a2) || g1 != g2 {
			t.Fatalf("runs differ:\n%+v %+v %q\n%+v %+v %q", d1, a1, g1, d2, a2, g2)
		}
	}
}

func TestOfflineAggregate(t *testing.T) {
	p := newOffline(t, offline.Config{})
	got, err := p.Aggregate(context.Background(), llm.AggregateRequest{Turns: []llm.Turn{
		{Agent: "a", Response: "Markets rose. Earnings beat forecasts."},
		{Agent: "b", Response: "markets  rose! Athletes won.  "},
		{Agent: "c", Response: "  "},
	}})
	if err != nil {
		t.Fatal(err)
	}
	if want := "Markets rose. Earnings beat forecasts.\n\nAthletes won."; got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
	if got, _ := p.Aggregate(context.Background(), llm.AggregateRequest{}); got != llm.NoAgentAnswer {
		t.Fatalf("no turns: %q", got)
	}
}

func TestOfflineExtract(t *testing.T) {
	p := newOffline(t, offline.Config{})
	ctx := context.Background()
	req := llm.ExtractRequest{
		Tier: llm.TierPrivate, Query: "  What is   Bob's plan?  ",
		Response: "bob_k plans a launch; reach him at bob@corp.example or +49 30 1234 5678.",
		Users:    []string{"bob_k"},
	}
	priv, err := p.Extract(ctx, req)
	if err != nil || len(priv) != 1 || priv[0].Key != "What is Bob's plan?" || priv[0].Value != req.Response {
		t.Fatalf("private: %+v %v", priv, err)
	}
	req.Tier = llm.TierShared
	shared, err := p.Extract(ctx, req)
	if err != nil || len(shared) != 1 {
		t.Fatalf("shared: %+v %v", shared, err)
	}
	if want := "[USER] plans a launch; reach him at [EMAIL] or [PHONE]."; shared[0].Value != want {
		t.Fatalf("shared value %q, want %q", shared[0].Value, want)
	}
	req.Query, req.Tier = strings.Repeat("word ", 100), llm.TierPrivate
	long, _ := p.Extract(ctx, req)
	if n := len([]rune(long[0].Key)); n > 200 || n < 190 {
		t.Fatalf("key of %d runes, want at most 200, cut at a word", n)
	}
	if none, err := p.Extract(ctx, llm.ExtractRequest{Tier: llm.TierShared, Query: "q", Response: " "}); err != nil || len(none) != 0 {
		t.Fatalf("blank response: %+v %v", none, err)
	}
}

func TestOfflineTransform(t *testing.T) {
	p := newOffline(t, offline.Config{Names: func() []string { return []string{"carol"} }})
	ctx := context.Background()
	in := "Carol (carol@x.io) paid with 4111 1111 1111 1111."
	red, _ := p.Transform(ctx, llm.ModeRedact, in)
	if red != "Carol ([EMAIL]) paid with [CARD]." {
		t.Fatalf("redact: %q", red)
	}
	anon, _ := p.Transform(ctx, llm.ModeAnonymize, in)
	if anon != "[USER] ([EMAIL]) paid with [CARD]." {
		t.Fatalf("anonymize: %q", anon)
	}
	para, _ := p.Transform(ctx, llm.ModeParaphrase, "I  paid.")
	if para != "The user paid." {
		t.Fatalf("paraphrase: %q", para)
	}
	if _, err := p.Transform(ctx, "summarize", in); !errors.Is(err, llm.ErrMode) || !errors.Is(err, llm.ErrProvider) {
		t.Fatalf("unknown mode: %v", err)
	}
}

func TestOfflineConfigValidate(t *testing.T) {
	err := offline.Config{RouteThreshold: 2, StopCoverage: -1, MaxSentences: -1}.Validate()
	var joined interface{ Unwrap() []error }
	if !errors.Is(err, llm.ErrConfig) || !errors.As(err, &joined) || len(joined.Unwrap()) != 3 {
		t.Fatalf("err %v, want 3 joined ErrConfig", err)
	}
	p := newOffline(t, offline.Config{})
	if p.Name() != "offline-v1/sem-wink100-v1" {
		t.Fatalf("Name %q", p.Name())
	}
}

// Reach lifts an agent whose description says little but whose resources
// hold the answer; it never lowers a well-described agent, and nothing is
// chosen when neither description nor reach is relevant.
func TestOfflineRoutesByReach(t *testing.T) {
	p := newOffline(t, offline.Config{})
	ctx := context.Background()
	agents := []llm.AgentCard{
		{ID: "assistant", Description: "a helpful general assistant", Reach: 0.9},
		{ID: "banker", Description: "bank accounts, loans and interest rates", Reach: 0.05},
	}
	d, err := p.Coordinate(ctx, llm.CoordinateRequest{Query: "What food is Lyon famous for?", Agents: agents})
	if err != nil || d.Stop || d.Agent != "assistant" {
		t.Fatalf("decision %+v, %v: want assistant, whose resources reach the answer", d, err)
	}
	agents[0].Reach = 0
	d, err = p.Coordinate(ctx, llm.CoordinateRequest{Query: "What food is Lyon famous for?", Agents: agents})
	if err != nil || !d.Stop {
		t.Fatalf("decision %+v, %v: want stop, nothing is relevant", d, err)
	}
	d, err = p.Coordinate(ctx, llm.CoordinateRequest{Query: "What interest rate does the bank charge on loans?", Agents: []llm.AgentCard{
		{ID: "assistant", Description: "a helpful general assistant", Reach: 0.3},
		{ID: "banker", Description: "bank accounts, loans and interest rates"},
	}})
	if err != nil || d.Agent != "banker" {
		t.Fatalf("decision %+v, %v: want banker, described for the question", d, err)
	}
}

// A multi-part question (Scenario 2's strategy director) is split across
// the agents by their descriptions: each round asks one agent only the
// parts that are its own, and a turn closes only what it was asked, so
// every part is answered by its domain's agent before the query stops.
func TestOfflineSplitsAMultiPartQuestionAcrossAgents(t *testing.T) {
	p := newOffline(t, offline.Config{})
	agents := []llm.AgentCard{
		{ID: "market_agent", Description: "market research: consumer demand index, market share, competitor count, customer segment size"},
		{ID: "finance_agent", Description: "financial forecasting: forecast revenue, break-even month, gross margin, capital expenditure"},
		{ID: "logistics_agent", Description: "logistics and operations: shipping lead time, warehouse throughput, freight cost, supplier count"},
		{ID: "decision_agent", Description: "strategy decisions: strategic growth plan, recommendations, priorities, budget computation"},
	}
	parts := map[string]string{
		"decision_agent":  "Craft a strategic growth plan for Zaraitrail Brepukain.",
		"market_agent":    "What is the consumer demand index of Zaraitrail Brepukain (market)?",
		"finance_agent":   "What is the forecast revenue of Zaraitrail Brepukain (finance)?",
		"logistics_agent": "What is the shipping lead time of Zaraitrail Brepukain (logistics)?",
	}
	req := llm.CoordinateRequest{Agents: agents, MaxRounds: 4}
	req.Query = strings.Join([]string{parts["decision_agent"], parts["market_agent"], parts["finance_agent"], parts["logistics_agent"]}, " ")
	for round := 1; round <= 4; round++ {
		req.Round = round
		d, err := p.Coordinate(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		want, ok := parts[d.Agent]
		if d.Stop || !ok || d.Subquery != want {
			t.Fatalf("round %d: %+v, want an agent not yet asked with only its own part (left: %v)", round, d, parts)
		}
		delete(parts, d.Agent)
		req.Turns = append(req.Turns, llm.Turn{Agent: d.Agent, Subquery: d.Subquery, Response: "It is 12345."})
	}
	req.Round = 5
	if d, err := p.Coordinate(context.Background(), req); err != nil || !d.Stop {
		t.Fatalf("after every part was answered: %+v %v, want stop", d, err)
	}
}
