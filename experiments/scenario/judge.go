package scenario

import (
	"context"
	"fmt"
	"os"
	"strings"

	openai "github.com/sashabaranov/go-openai"
)

// llmJudge asks an OpenAI-compatible model whether an answer holds the
// expected fact, as the paper measures accuracy; the exact-match judge
// (correct) stands beside it.
type llmJudge struct {
	c     *openai.Client
	model string
}

// newLLMJudge returns nil unless CMEM_OPENAI_BASE_URL is set; the model is
// CMEM_JUDGE_MODEL, else CMEM_CHAT_MODEL, else gpt-4o-mini.
func newLLMJudge() *llmJudge {
	base := os.Getenv("CMEM_OPENAI_BASE_URL")
	if base == "" {
		return nil
	}
	cfg := openai.DefaultConfig(os.Getenv("OPENAI_API_KEY"))
	cfg.BaseURL = base
	model := os.Getenv("CMEM_JUDGE_MODEL")
	if model == "" {
		model = os.Getenv("CMEM_CHAT_MODEL")
	}
	if model == "" {
		model = "gpt-4o-mini"
	}
	return &llmJudge{c: openai.NewClientWithConfig(cfg), model: model}
}

const judgePrompt = `You grade answers. Given a question, the ground-truth answer and a system's answer, reply with exactly one word: CORRECT if the system's answer states the ground truth (extra text is fine), INCORRECT otherwise.`

func (j *llmJudge) judge(ctx context.Context, question, expected, answer string) (bool, error) {
	resp, err := j.c.CreateChatCompletion(ctx, openai.ChatCompletionRequest{
		Model:       j.model,
		Temperature: 0,
		Messages: []openai.ChatCompletionMessage{
			{Role: openai.ChatMessageRoleSystem, Content: judgePrompt},
			{Role: openai.ChatMessageRoleUser, Content: fmt.Sprintf("Question: %s\nGround truth: %s\nSystem answer: %s", question, expected, answer)},
		},
	})
	if err != nil {
		return false, fmt.Errorf("llm judge: %w", err)
	}
	if len(resp.Choices) == 0 {
		return false, fmt.Errorf("llm judge: no choices")
	}
	v := strings.ToUpper(strings.TrimSpace(resp.Choices[0].Message.Content))
	return strings.HasPrefix(v, "CORRECT"), nil
}
