package openai

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	goopenai "github.com/sashabaranov/go-openai"

	"github.com/cmem/cmem/llm"
)

// answerMessage shows the agent its memory view, its graph memory and the
// subquery.
func answerMessage(req llm.AnswerRequest) string {
	var b strings.Builder
	b.WriteString("Relevant memories (most relevant first):\n")
	if len(req.Memory) == 0 {
		b.WriteString("(none)\n")
	}
	for i, m := range req.Memory {
		observed := ""
		if !m.ObservedAt.IsZero() {
			observed = " (observed " + m.ObservedAt.UTC().Format("2 January 2006") + ")"
		}
		fmt.Fprintf(&b, "%d. [%s]%s %s: %s\n", i+1, m.Tier, observed, llm.Squash(m.Key), strings.TrimSpace(m.Value))
	}
	if len(req.Graph) > 0 {
		b.WriteString("\nLessons from similar past queries (graph memory):\n")
		for i, g := range req.Graph {
			fmt.Fprintf(&b, "%d. [%s] %s\n", i+1, g.Kind, llm.Squash(g.Text))
		}
	}
	fmt.Fprintf(&b, "\nTask:\n%s\n\n%s", strings.TrimSpace(req.Subquery), answerRules)
	return b.String()
}

// answerRules ask for an answer that answers, from memories that answer
// this very question, citing them.
const answerRules = "Use a memory only if it answers this very question (the same subject and the same attribute " +
	"or relation, not a similar one); otherwise use the tools. Answer in as few words as possible: a date, a name, " +
	"a number or a short phrase (Yes or No and a short reason for a yes/no question), resolving relative dates " +
	"against the memory's observed date. End with the numbers of the memories you used, as [1] [3]."

// citationsRE matches the memory numbers an answer ends with.
var citationsRE = regexp.MustCompile(`(?:\s*\[\d+\])+\s*\.?\s*$`)

// cited splits the trailing memory citations off a response: the response
// without them and the ids of the memories cited (numbers outside the
// memory list are dropped).
func cited(response string, memory []llm.MemoryItem) (string, []string) {
	loc := citationsRE.FindStringIndex(response)
	if loc == nil {
		return response, nil
	}
	var ids []string
	for _, n := range regexp.MustCompile(`\d+`).FindAllString(response[loc[0]:], -1) {
		if i, err := strconv.Atoi(n); err == nil && i >= 1 && i <= len(memory) && !slices.Contains(ids, memory[i-1].ID) {
			ids = append(ids, memory[i-1].ID)
		}
	}
	return strings.TrimSpace(response[:loc[0]]), ids
}

// tools turns req.Tools into function tools, exactly those and no others.
func tools(ts []llm.Tool) []goopenai.Tool {
	out := make([]goopenai.Tool, 0, len(ts))
	for _, t := range ts {
		params := t.Parameters
		if len(params) == 0 || string(params) == "null" {
			params = json.RawMessage(`{"type":"object","properties":{}}`)
		}
		out = append(out, goopenai.Tool{Type: goopenai.ToolTypeFunction, Function: &goopenai.FunctionDefinition{
			Name: t.Name, Description: t.Description, Parameters: params,
		}})
	}
	return out
}

// Answer runs the agent turn as a function-calling loop: system prompt
// (req.SystemPrompt, else Prompts.Agent), then memory view and subquery,
// with req.Tools offered as functions when MaxToolCalls > 0 and Call is
// set. Each tool call the model makes is run through req.Call, and its
// result (or "error: ...") sent back, until the model answers in plain
// text. Calls to a tool not offered, with arguments that are not a JSON
// object, or beyond MaxToolCalls are refused: not run, not in the result,
// and reported to the model as an error so it can answer without them.
// Once the budget is spent tool_choice is "none". A model that still
// calls tools after MaxToolCalls+1 rounds (one round of slack for refused
// calls), or answers with nothing, fails with llm.ErrProvider.
func (p *Provider) Answer(ctx context.Context, req llm.AnswerRequest) (llm.AnswerResult, error) {
	budget := req.MaxToolCalls
	if req.Call == nil || len(req.Tools) == 0 {
		budget = 0
	}
	offered := map[string]bool{}
	for _, t := range req.Tools {
		offered[t.Name] = true
	}
	chatReq := goopenai.ChatCompletionRequest{Messages: []goopenai.ChatCompletionMessage{
		system(orDefault(req.SystemPrompt, p.cfg.Prompts.Agent)),
		user(answerMessage(req)),
	}}
	if budget > 0 {
		chatReq.Tools = tools(req.Tools)
	}
	var result llm.AnswerResult
	for round := 0; ; round++ {
		msg, err := p.chat(ctx, chatReq)
		if err != nil {
			return llm.AnswerResult{}, err
		}
		if len(msg.ToolCalls) == 0 {
			result.Response, result.Cited = cited(strings.TrimSpace(msg.Content), req.Memory)
			if result.Response == "" {
				return llm.AnswerResult{}, fmt.Errorf("%w: agent %s: empty answer", llm.ErrProvider, req.AgentID)
			}
			return result, nil
		}
		if round > budget {
			return llm.AnswerResult{}, fmt.Errorf("%w: agent %s: still calling tools after %d rounds", llm.ErrProvider, req.AgentID, round+1)
		}
		chatReq.Messages = append(chatReq.Messages, goopenai.ChatCompletionMessage{
			Role: goopenai.ChatMessageRoleAssistant, Content: msg.Content, ToolCalls: msg.ToolCalls,
		})
		for _, tc := range msg.ToolCalls {
			reply := p.runTool(ctx, req, offered, len(result.Calls) >= budget, tc, &result)
			chatReq.Messages = append(chatReq.Messages, goopenai.ChatCompletionMessage{
				Role: goopenai.ChatMessageRoleTool, ToolCallID: tc.ID, Name: tc.Function.Name, Content: reply,
			})
		}
		if err := ctx.Err(); err != nil {
			return llm.AnswerResult{}, fmt.Errorf("%w: %w", llm.ErrProvider, err)
		}
		if len(result.Calls) >= budget && len(chatReq.Tools) > 0 {
			chatReq.ToolChoice = "none"
		}
	}
}

// runTool runs or refuses one tool call and returns what the model is told.
func (p *Provider) runTool(ctx context.Context, req llm.AnswerRequest, offered map[string]bool, spent bool,
	tc goopenai.ToolCall, result *llm.AnswerResult) string {
	name := tc.Function.Name
	refuse := func(why string) string {
		p.cfg.Logger.WarnContext(ctx, "llm: refused tool call", "agent", req.AgentID, "tool", name, "why", why)
		return "error: " + why
	}
	if !offered[name] {
		return refuse(fmt.Sprintf("tool %q is not offered to this agent; use only the tools listed", name))
	}
	if spent {
		return refuse("the tool call budget is spent; answer with what you have")
	}
	args := json.RawMessage(strings.TrimSpace(tc.Function.Arguments))
	if len(args) == 0 {
		args = json.RawMessage(`{}`)
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(args, &obj); err != nil {
		return refuse("arguments are not a JSON object: " + err.Error())
	}
	res, err := req.Call(ctx, name, args)
	result.Calls = append(result.Calls, llm.ToolCall{Tool: name, Arguments: args, Result: res, Err: err})
	if err != nil {
		return "error: " + err.Error()
	}
	return res
}
