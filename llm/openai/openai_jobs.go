package openai

import (
	"context"
	"fmt"
	"strings"

	goopenai "github.com/sashabaranov/go-openai"

	"github.com/cmem/cmem/llm"
	"github.com/cmem/cmem/llm/redact"
)

// The output-format instructions; they are sent in the user message so
// that overriding a system prompt cannot remove them.
const (
	coordinatorFormat = `Reply with one JSON object and nothing else: {"agent": "<an id from the list>", ` +
		`"subquery": "<the query, reformulated for that agent>"} to consult an agent next, or {"stop": true} ` +
		`when the task is complete (COMPLETE).`
	extractFormat = `Reply with one JSON object and nothing else: {"fragments": [{"key": "<concise query or ` +
		`topic>", "value": "<comprehensive answer or explanation>"}]}. Use an empty list when nothing is ` +
		`worth remembering.`
)

// coordinatorMessage lists exactly the offered agents, the history, the
// query and the turns so far.
func coordinatorMessage(req llm.CoordinateRequest) string {
	var b strings.Builder
	b.WriteString("Agents you may choose from (id: description). Choose only from this list:\n")
	for _, a := range req.Agents {
		fmt.Fprintf(&b, "- %s: %s\n", a.ID, llm.Squash(a.Description))
	}
	if len(req.History) > 0 {
		b.WriteString("\nConversation history (earlier queries of this user):\n")
		for _, h := range req.History {
			fmt.Fprintf(&b, "Q: %s\nA: %s\n", llm.Squash(h.Query), llm.Squash(h.Answer))
		}
	}
	fmt.Fprintf(&b, "\nUser query:\n%s\n\nAgent consultations so far:\n", strings.TrimSpace(req.Query))
	if len(req.Turns) == 0 {
		b.WriteString("(none)\n")
	}
	for i, t := range req.Turns {
		fmt.Fprintf(&b, "%d. %s was asked: %s\n   It answered: %s\n", i+1, t.Agent, llm.Squash(t.Subquery), llm.Squash(t.Response))
	}
	if req.MaxRounds > 0 {
		fmt.Fprintf(&b, "\nRound %d of at most %d.\n", req.Round, req.MaxRounds)
	}
	b.WriteString("\n" + coordinatorFormat)
	return b.String()
}

// Coordinate asks the model for the next agent. It stops without asking
// when no agent is offered or the rounds are exhausted (as the offline provider). The reply must
// be {"agent","subquery"} naming an offered agent, or {"stop": true} (a
// bare COMPLETE, the paper's wording, is read as stop); an agent that was
// not offered is an error wrapping llm.ErrProvider and llm.ErrNotOffered. A blank
// subquery becomes the query.
func (p *Provider) Coordinate(ctx context.Context, req llm.CoordinateRequest) (llm.Decision, error) {
	if len(req.Agents) == 0 || req.RoundsExhausted() {
		return llm.Decision{Stop: true}, nil
	}
	msg, err := p.chat(ctx, goopenai.ChatCompletionRequest{
		Messages: []goopenai.ChatCompletionMessage{
			system(orDefault(req.SystemPrompt, p.cfg.Prompts.Coordinator)),
			user(coordinatorMessage(req)),
		},
		ResponseFormat: jsonObject,
	})
	if err != nil {
		return llm.Decision{}, err
	}
	content := strings.TrimSpace(msg.Content)
	if strings.Trim(content, `."' `) == "COMPLETE" {
		return llm.Decision{Stop: true}, nil
	}
	var d llm.Decision
	if err := decodeJSON(content, &d); err != nil {
		return llm.Decision{}, err
	}
	if d.Stop {
		return llm.Decision{Stop: true}, nil
	}
	d.Agent = strings.TrimSpace(d.Agent)
	offered := false
	for _, a := range req.Agents {
		offered = offered || a.ID == d.Agent
	}
	if !offered {
		return llm.Decision{}, fmt.Errorf("%w: %w: coordinator chose agent %q", llm.ErrProvider, llm.ErrNotOffered, d.Agent)
	}
	if strings.TrimSpace(d.Subquery) == "" {
		d.Subquery = strings.TrimSpace(req.Query)
	}
	return d, nil
}

// Aggregate asks the model to merge the turns; with no turns it returns
// NoAgentAnswer without asking.
func (p *Provider) Aggregate(ctx context.Context, req llm.AggregateRequest) (string, error) {
	if len(req.Turns) == 0 {
		return llm.NoAgentAnswer, nil
	}
	var b strings.Builder
	fmt.Fprintf(&b, "User query:\n%s\n\nAgent outputs:\n", strings.TrimSpace(req.Query))
	for i, t := range req.Turns {
		fmt.Fprintf(&b, "\n[%d] %s, asked: %s\n%s\n", i+1, t.Agent, llm.Squash(t.Subquery), strings.TrimSpace(t.Response))
	}
	msg, err := p.chat(ctx, goopenai.ChatCompletionRequest{Messages: []goopenai.ChatCompletionMessage{
		system(orDefault(req.SystemPrompt, p.cfg.Prompts.Aggregator)),
		user(b.String()),
	}})
	if err != nil {
		return "", err
	}
	if strings.TrimSpace(msg.Content) == "" {
		return "", fmt.Errorf("%w: aggregator reply is empty", llm.ErrProvider)
	}
	return strings.TrimSpace(msg.Content), nil
}

// Extract asks the model for fragments with the tier's write prompt and
// keeps those with a non-blank key and value, keys cut to 200 runes. For
// the shared tier every rule of package redact runs over the model's
// output too (req.Users as names): a model that ignores "remove any
// user-specific details" must not leak them. A blank response yields no
// fragment without asking.
func (p *Provider) Extract(ctx context.Context, req llm.ExtractRequest) ([]llm.KeyValue, error) {
	prompt := p.cfg.Prompts.WritePrivate
	switch req.Tier {
	case llm.TierPrivate:
	case llm.TierShared:
		prompt = p.cfg.Prompts.WriteShared
	default:
		return nil, fmt.Errorf("%w: %w %q", llm.ErrProvider, llm.ErrTier, req.Tier)
	}
	if strings.TrimSpace(req.Response) == "" {
		return nil, nil
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Interaction:\nQuery: %s\nResponse: %s\n", strings.TrimSpace(req.Query), strings.TrimSpace(req.Response))
	if req.Tier == llm.TierShared && len(req.Users) > 0 {
		fmt.Fprintf(&b, "\nRegistered user ids, which must not appear in shared memories: %s\n", strings.Join(req.Users, ", "))
	}
	b.WriteString("\n" + extractFormat)
	var reply struct {
		Fragments []llm.KeyValue `json:"fragments"`
	}
	if err := p.chatJSON(ctx, orDefault(req.Prompt, prompt), b.String(), &reply); err != nil {
		return nil, err
	}
	var out []llm.KeyValue
	for _, f := range reply.Fragments {
		k, v := llm.TruncateWords(llm.Squash(f.Key), llm.MaxKeyRunes), strings.TrimSpace(f.Value)
		if k == "" || v == "" {
			continue
		}
		if req.Tier == llm.TierShared {
			k, _ = redact.Apply(k, redact.All(req.Users...))
			v, _ = redact.Apply(v, redact.All(req.Users...))
		}
		out = append(out, llm.KeyValue{Key: k, Value: v})
	}
	return out, nil
}

// Transform asks the model to rewrite text with the mode's prompt. After
// "redact" and "anonymize" the rules of package redact run over the
// model's output as well (with Names for anonymize), so the rule-based
// guarantee holds whatever the model does. Blank text is returned as is.
func (p *Provider) Transform(ctx context.Context, mode, text string) (string, error) {
	var prompt string
	switch mode {
	case llm.ModeRedact:
		prompt = p.cfg.Prompts.Redact
	case llm.ModeAnonymize:
		prompt = p.cfg.Prompts.Anonymize
	case llm.ModeParaphrase:
		prompt = p.cfg.Prompts.Paraphrase
	default:
		return "", fmt.Errorf("%w: %w %q", llm.ErrProvider, llm.ErrMode, mode)
	}
	if strings.TrimSpace(text) == "" {
		return text, nil
	}
	msg, err := p.chat(ctx, goopenai.ChatCompletionRequest{Messages: []goopenai.ChatCompletionMessage{system(prompt), user(text)}})
	if err != nil {
		return "", err
	}
	out := strings.TrimSpace(msg.Content)
	if out == "" {
		return "", fmt.Errorf("%w: %s reply is empty", llm.ErrProvider, mode)
	}
	switch mode {
	case llm.ModeRedact:
		out, _ = redact.Apply(out, redact.All())
	case llm.ModeAnonymize:
		var names []string
		if p.cfg.Names != nil {
			names = p.cfg.Names()
		}
		out, _ = redact.Apply(out, redact.All(names...))
	}
	return out, nil
}
