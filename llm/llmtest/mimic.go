package llmtest

import (
	"encoding/json"
	"strings"

	openai "github.com/sashabaranov/go-openai"

	"github.com/cmem/cmem/embedding"
)

// Mimic is a chat handler (for Server.HandleChat) that plays a simple,
// well-behaved model against the message layout of llm/openai.Provider:
//
//   - coordinator requests: the listed agent sharing most words with the
//     query while no agent has been consulted, then {"stop": true};
//   - extraction requests: one fragment, the query as key and the response
//     as value;
//   - requests offering tools, before any tool result: a call of the tool
//     sharing most words with the task, with the task as every required
//     string argument (or as "query");
//   - anything else: the last user or tool message, echoed.
//
// It lets the provider contract run over real HTTP without a model; it is
// not a model, and tests must not read more into its answers.
func Mimic() func(ChatRequest) Reply {
	return func(req ChatRequest) Reply {
		last := lastContent(req.Messages)
		switch {
		case strings.Contains(last, "Agents you may choose from"):
			return mimicCoordinate(last)
		case strings.Contains(last, `{"fragments"`):
			return JSON(map[string]any{"fragments": []map[string]string{{
				"key": section(last, "Query: "), "value": section(last, "Response: "),
			}}})
		case len(req.Tools) > 0 && req.ToolChoice == nil && !hasToolResult(req.Messages):
			task := last
			if i := strings.LastIndex(last, "Task:\n"); i >= 0 {
				task = last[i+len("Task:\n"):]
			}
			return Calls(mimicToolCall(req.Tools, task))
		}
		return Text(last)
	}
}

func lastContent(msgs []openai.ChatCompletionMessage) string {
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role == openai.ChatMessageRoleUser || msgs[i].Role == openai.ChatMessageRoleTool {
			return msgs[i].Content
		}
	}
	return ""
}

func hasToolResult(msgs []openai.ChatCompletionMessage) bool {
	for _, m := range msgs {
		if m.Role == openai.ChatMessageRoleTool {
			return true
		}
	}
	return false
}

// section returns the rest of the line that starts with prefix.
func section(text, prefix string) string {
	for _, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(line, prefix) {
			return strings.TrimPrefix(line, prefix)
		}
	}
	return ""
}

func overlap(a, b string) int {
	words := map[string]bool{}
	for _, w := range embedding.Tokenize(a) {
		words[w] = true
	}
	n := 0
	for _, w := range embedding.Tokenize(b) {
		if words[w] {
			n++
		}
	}
	return n
}

func mimicCoordinate(msg string) Reply {
	if !strings.Contains(msg, "Agent consultations so far:\n(none)") {
		return JSON(map[string]bool{"stop": true})
	}
	query := ""
	if i := strings.Index(msg, "User query:\n"); i >= 0 {
		query, _, _ = strings.Cut(msg[i+len("User query:\n"):], "\n\n")
	}
	best, bestN := "", -1
	for _, line := range strings.Split(msg, "\n") {
		if !strings.HasPrefix(line, "- ") {
			continue
		}
		id, desc, _ := strings.Cut(strings.TrimPrefix(line, "- "), ": ")
		if n := overlap(query, desc+" "+id); n > bestN {
			best, bestN = id, n
		}
	}
	if best == "" {
		return JSON(map[string]bool{"stop": true})
	}
	return JSON(map[string]string{"agent": best, "subquery": query})
}

func mimicToolCall(tools []openai.Tool, task string) openai.ToolCall {
	var best *openai.FunctionDefinition
	bestN := -1
	for _, t := range tools {
		if t.Function == nil {
			continue
		}
		if n := overlap(task, t.Function.Description+" "+t.Function.Name); n > bestN {
			best, bestN = t.Function, n
		}
	}
	if best == nil {
		return Call("call_mimic", "", map[string]string{})
	}
	args := map[string]string{}
	var s struct {
		Required []string `json:"required"`
	}
	if b, err := json.Marshal(best.Parameters); err == nil {
		_ = json.Unmarshal(b, &s)
	}
	for _, r := range s.Required {
		args[r] = task
	}
	if len(args) == 0 {
		args["query"] = task
	}
	return Call("call_mimic", best.Name, args)
}
