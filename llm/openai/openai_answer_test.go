package openai_test

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	goopenai "github.com/sashabaranov/go-openai"

	"github.com/cmem/cmem/llm"
	"github.com/cmem/cmem/llm/llmtest"
	"github.com/cmem/cmem/llm/openai"
)

func answerReq(tools *llmtest.FakeTools, budget int) llm.AnswerRequest {
	return llm.AnswerRequest{
		AgentID: "market_agent", SystemPrompt: "You are a market intelligence agent.",
		Subquery: "smart home trends in Europe",
		Memory:   []llm.MemoryItem{{Key: "smart home", Value: "Privacy sells.", Tier: "shared", Score: 0.4}},
		Tools:    llmtest.PaperTools[:2], Call: tools.Call, MaxToolCalls: budget,
	}
}

func TestOpenAIAnswerToolLoop(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.EnqueueChat(
		llmtest.Calls(llmtest.Call("c1", "market_kb", map[string]string{"query": "smart home Europe"})),
		llmtest.Text("Demand grows; privacy sells."),
	)
	p := newOpenAI(t, srv, openai.Config{})
	tools := &llmtest.FakeTools{Results: map[string]string{"market_kb": "Demand grows 9% a year."}}
	res, err := p.Answer(context.Background(), answerReq(tools, 3))
	if err != nil {
		t.Fatal(err)
	}
	if res.Response != "Demand grows; privacy sells." || len(res.Calls) != 1 || res.Calls[0].Result != "Demand grows 9% a year." {
		t.Fatalf("result %+v", res)
	}
	if len(tools.Calls) != 1 || tools.Calls[0].Args["query"] != "smart home Europe" {
		t.Fatalf("tool calls %+v", tools.Calls)
	}
	reqs := srv.ChatRequests()
	first := reqs[0]
	if first.Messages[0].Content != "You are a market intelligence agent." ||
		!strings.Contains(first.Messages[1].Content, "[shared] smart home: Privacy sells.") ||
		!strings.Contains(first.Messages[1].Content, "smart home trends in Europe") {
		t.Fatalf("first request messages %+v", first.Messages)
	}
	// Exactly the offered tools, with their schemas.
	if len(first.Tools) != 2 {
		t.Fatalf("%d tools offered, want 2", len(first.Tools))
	}
	for i, tool := range first.Tools {
		var want, got any
		_ = json.Unmarshal(llmtest.PaperTools[i].Parameters, &want)
		b, _ := json.Marshal(tool.Function.Parameters)
		_ = json.Unmarshal(b, &got)
		if tool.Type != goopenai.ToolTypeFunction || tool.Function.Name != llmtest.PaperTools[i].Name || !reflect.DeepEqual(got, want) {
			t.Fatalf("tool %d offered as %+v", i, tool.Function)
		}
	}
	second := reqs[1].Messages
	last := second[len(second)-1]
	if len(second) != 4 || second[2].Role != "assistant" || len(second[2].ToolCalls) != 1 ||
		last.Role != "tool" || last.ToolCallID != "c1" || last.Content != "Demand grows 9% a year." {
		t.Fatalf("second request messages %+v", second)
	}
}

func TestOpenAIAnswerRefusesUnofferedTool(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.EnqueueChat(
		llmtest.Calls(llmtest.Call("c1", "strategic_computation", map[string]string{"expression": "1+1"})),
		llmtest.Text("Answered without it."),
	)
	p := newOpenAI(t, srv, openai.Config{})
	tools := &llmtest.FakeTools{}
	res, err := p.Answer(context.Background(), answerReq(tools, 3))
	if err != nil {
		t.Fatal(err)
	}
	if len(tools.Calls) != 0 || len(res.Calls) != 0 || res.Response != "Answered without it." {
		t.Fatalf("unoffered tool ran: calls %+v, result %+v", tools.Calls, res)
	}
	msgs := srv.ChatRequests()[1].Messages
	if reply := msgs[len(msgs)-1]; reply.Role != "tool" || !strings.HasPrefix(reply.Content, "error:") || !strings.Contains(reply.Content, "not offered") {
		t.Fatalf("model was told %+v", reply)
	}
}

func TestOpenAIAnswerBudget(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.EnqueueChat(
		llmtest.Calls(
			llmtest.Call("c1", "market_kb", map[string]string{"query": "a"}),
			llmtest.Call("c2", "market_kb", map[string]string{"query": "b"}),
			llmtest.Call("c3", "market_kb", "{not json"),
		),
		llmtest.Text("done"),
	)
	p := newOpenAI(t, srv, openai.Config{})
	tools := &llmtest.FakeTools{Results: map[string]string{"market_kb": "ok"}}
	res, err := p.Answer(context.Background(), answerReq(tools, 1))
	if err != nil {
		t.Fatal(err)
	}
	if len(tools.Calls) != 1 || len(res.Calls) != 1 {
		t.Fatalf("budget 1: %d calls run, %d reported", len(tools.Calls), len(res.Calls))
	}
	second := srv.ChatRequests()[1]
	if second.ToolChoice != "none" {
		t.Fatalf("tool_choice %v after the budget is spent, want none", second.ToolChoice)
	}
	n := len(second.Messages)
	if !strings.Contains(second.Messages[n-2].Content, "budget") || !strings.HasPrefix(second.Messages[n-1].Content, "error:") {
		t.Fatalf("refusals not reported: %+v", second.Messages[n-2:])
	}
}

func TestOpenAIAnswerNoToolsWithoutBudget(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.EnqueueChat(llmtest.Text("from memory"))
	p := newOpenAI(t, srv, openai.Config{})
	res, err := p.Answer(context.Background(), answerReq(&llmtest.FakeTools{}, 0))
	if err != nil || res.Response != "from memory" {
		t.Fatalf("%+v %v", res, err)
	}
	if tools := srv.ChatRequests()[0].Tools; len(tools) != 0 {
		t.Fatalf("%d tools offered with MaxToolCalls 0", len(tools))
	}
}

func TestOpenAIAnswerEndlessToolCalls(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.HandleChat(func(llmtest.ChatRequest) llmtest.Reply {
		return llmtest.Calls(llmtest.Call("c", "market_kb", map[string]string{"query": "again"}))
	})
	p := newOpenAI(t, srv, openai.Config{})
	tools := &llmtest.FakeTools{Results: map[string]string{"market_kb": "ok"}}
	_, err := p.Answer(context.Background(), answerReq(tools, 2))
	if !errors.Is(err, llm.ErrProvider) {
		t.Fatalf("err %v, want ErrProvider", err)
	}
	if len(tools.Calls) != 2 || len(srv.ChatRequests()) != 4 {
		t.Fatalf("%d tool calls, %d requests; want 2 and 4", len(tools.Calls), len(srv.ChatRequests()))
	}
}

func TestOpenAIAnswerEmpty(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.EnqueueChat(llmtest.Text("  "))
	p := newOpenAI(t, srv, openai.Config{})
	if _, err := p.Answer(context.Background(), answerReq(&llmtest.FakeTools{}, 1)); !errors.Is(err, llm.ErrProvider) {
		t.Fatalf("err %v, want ErrProvider", err)
	}
}

// TestOpenAIAnswerShowsGraphMemory: the model is shown the agent's graph
// memory (insights and past utterances) between its memory view and the
// task.
func TestOpenAIAnswerShowsGraphMemory(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.EnqueueChat(llmtest.Text("Use the market knowledge base."))
	p := newOpenAI(t, srv, openai.Config{})
	req := answerReq(&llmtest.FakeTools{}, 0)
	req.Graph = []llm.GraphItem{{ID: "ins_1", Kind: "insight", Text: "market_agent answered 2 past queries by calling market_kb."}}
	if _, err := p.Answer(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	msg := srv.ChatRequests()[0].Messages[1].Content
	graph := strings.Index(msg, "1. [insight] market_agent answered 2 past queries by calling market_kb.")
	if graph < 0 || graph < strings.Index(msg, "Privacy sells.") || graph > strings.Index(msg, "Task:") {
		t.Fatalf("graph memory is not shown between the memory view and the task:\n%s", msg)
	}
}
