package llm

import (
	"context"
	"fmt"
	"strings"

	openai "github.com/sashabaranov/go-openai"

	"github.com/cmem/cmem/redact"
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
func coordinatorMessage(req CoordinateRequest) string {
	var b strings.Builder
	b.WriteString("Agents you may choose from (id: description). Choose only from this list:\n")
	for _, a := range req.Agents {
		fmt.Fprintf(&b, "- %s: %s\n", a.ID, squash(a.Description))
	}
	if len(req.History) > 0 {
		b.WriteString("\nConversation history (earlier queries of this user):\n")
		for _, h := range req.History {
			fmt.Fprintf(&b, "Q: %s\nA: %s\n", squash(h.Query), squash(h.Answer))
		}
	}
	fmt.Fprintf(&b, "\nUser query:\n%s\n\nAgent consultations so far:\n", strings.TrimSpace(req.Query))
	if len(req.Turns) == 0 {
		b.WriteString("(none)\n")
	}
	for i, t := range req.Turns {
		fmt.Fprintf(&b, "%d. %s was asked: %s\n   It answered: %s\n", i+1, t.Agent, squash(t.Subquery), squash(t.Response))
	}
	if req.MaxRounds > 0 {
		fmt.Fprintf(&b, "\nRound %d of at most %d.\n", req.Round, req.MaxRounds)
	}
	b.WriteString("\n" + coordinatorFormat)
	return b.String()
}

// Coordinate asks the model for the next agent. It stops without asking
// when no agent is offered or the rounds are exhausted (as Offline). The reply must
// be {"agent","subquery"} naming an offered agent, or {"stop": true} (a
// bare COMPLETE, the paper's wording, is read as stop); an agent that was
// not offered is an error wrapping ErrProvider and ErrNotOffered. A blank
// subquery becomes the query.
func (p *OpenAI) Coordinate(ctx context.Context, req CoordinateRequest) (Decision, error) {
	if len(req.Agents) == 0 || roundsExhausted(req) {
		return Decision{Stop: true}, nil
	}
	msg, err := p.chat(ctx, openai.ChatCompletionRequest{
		Messages: []openai.ChatCompletionMessage{
			system(orDefault(req.SystemPrompt, p.cfg.Prompts.Coordinator)),
			user(coordinatorMessage(req)),
		},
		ResponseFormat: jsonObject,
	})
	if err != nil {
		return Decision{}, err
	}
	content := strings.TrimSpace(msg.Content)
	if strings.Trim(content, `."' `) == "COMPLETE" {
		return Decision{Stop: true}, nil
	}
	var d Decision
	if err := decodeJSON(content, &d); err != nil {
		return Decision{}, err
	}
	if d.Stop {
		return Decision{Stop: true}, nil
	}
	d.Agent = strings.TrimSpace(d.Agent)
	offered := false
	for _, a := range req.Agents {
		offered = offered || a.ID == d.Agent
	}
	if !offered {
		return Decision{}, fmt.Errorf("%w: %w: coordinator chose agent %q", ErrProvider, ErrNotOffered, d.Agent)
	}
	if strings.TrimSpace(d.Subquery) == "" {
		d.Subquery = strings.TrimSpace(req.Query)
	}
	return d, nil
}

// Aggregate asks the model to merge the turns; with no turns it returns
// NoAgentAnswer without asking.
func (p *OpenAI) Aggregate(ctx context.Context, req AggregateRequest) (string, error) {
	if len(req.Turns) == 0 {
		return NoAgentAnswer, nil
	}
	var b strings.Builder
	fmt.Fprintf(&b, "User query:\n%s\n\nAgent outputs:\n", strings.TrimSpace(req.Query))
	for i, t := range req.Turns {
		fmt.Fprintf(&b, "\n[%d] %s, asked: %s\n%s\n", i+1, t.Agent, squash(t.Subquery), strings.TrimSpace(t.Response))
	}
	msg, err := p.chat(ctx, openai.ChatCompletionRequest{Messages: []openai.ChatCompletionMessage{
		system(orDefault(req.SystemPrompt, p.cfg.Prompts.Aggregator)),
		user(b.String()),
	}})
	if err != nil {
		return "", err
	}
	if strings.TrimSpace(msg.Content) == "" {
		return "", fmt.Errorf("%w: aggregator reply is empty", ErrProvider)
	}
	return strings.TrimSpace(msg.Content), nil
}

// Extract asks the model for fragments with the tier's write prompt and
// keeps those with a non-blank key and value, keys cut to 200 runes. For
// the shared tier every rule of package redact runs over the model's
// output too (req.Users as names): a model that ignores "remove any
// user-specific details" must not leak them. A blank response yields no
// fragment without asking.
func (p *OpenAI) Extract(ctx context.Context, req ExtractRequest) ([]KeyValue, error) {
	prompt := p.cfg.Prompts.WritePrivate
	switch req.Tier {
	case TierPrivate:
	case TierShared:
		prompt = p.cfg.Prompts.WriteShared
	default:
		return nil, fmt.Errorf("%w: %w %q", ErrProvider, ErrTier, req.Tier)
	}
	if strings.TrimSpace(req.Response) == "" {
		return nil, nil
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Interaction:\nQuery: %s\nResponse: %s\n", strings.TrimSpace(req.Query), strings.TrimSpace(req.Response))
	if req.Tier == TierShared && len(req.Users) > 0 {
		fmt.Fprintf(&b, "\nRegistered user ids, which must not appear in shared memories: %s\n", strings.Join(req.Users, ", "))
	}
	b.WriteString("\n" + extractFormat)
	msg, err := p.chat(ctx, openai.ChatCompletionRequest{
		Messages:       []openai.ChatCompletionMessage{system(orDefault(req.Prompt, prompt)), user(b.String())},
		ResponseFormat: jsonObject,
	})
	if err != nil {
		return nil, err
	}
	var reply struct {
		Fragments []KeyValue `json:"fragments"`
	}
	if err := decodeJSON(msg.Content, &reply); err != nil {
		return nil, err
	}
	var out []KeyValue
	for _, f := range reply.Fragments {
		k, v := truncateWords(squash(f.Key), maxKeyRunes), strings.TrimSpace(f.Value)
		if k == "" || v == "" {
			continue
		}
		if req.Tier == TierShared {
			k, _ = redact.Apply(k, redact.All(req.Users...))
			v, _ = redact.Apply(v, redact.All(req.Users...))
		}
		out = append(out, KeyValue{Key: k, Value: v})
	}
	return out, nil
}

// Transform asks the model to rewrite text with the mode's prompt. After
// "redact" and "anonymize" the rules of package redact run over the
// model's output as well (with Names for anonymize), so the rule-based
// guarantee holds whatever the model does. Blank text is returned as is.
func (p *OpenAI) Transform(ctx context.Context, mode, text string) (string, error) {
	var prompt string
	switch mode {
	case ModeRedact:
		prompt = p.cfg.Prompts.Redact
	case ModeAnonymize:
		prompt = p.cfg.Prompts.Anonymize
	case ModeParaphrase:
		prompt = p.cfg.Prompts.Paraphrase
	default:
		return "", fmt.Errorf("%w: %w %q", ErrProvider, ErrMode, mode)
	}
	if strings.TrimSpace(text) == "" {
		return text, nil
	}
	msg, err := p.chat(ctx, openai.ChatCompletionRequest{Messages: []openai.ChatCompletionMessage{system(prompt), user(text)}})
	if err != nil {
		return "", err
	}
	out := strings.TrimSpace(msg.Content)
	if out == "" {
		return "", fmt.Errorf("%w: %s reply is empty", ErrProvider, mode)
	}
	switch mode {
	case ModeRedact:
		out, _ = redact.Apply(out, redact.All())
	case ModeAnonymize:
		var names []string
		if p.cfg.Names != nil {
			names = p.cfg.Names()
		}
		out, _ = redact.Apply(out, redact.All(names...))
	}
	return out, nil
}
