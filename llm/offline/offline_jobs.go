package offline

import (
	"context"
	"fmt"
	"strings"

	"github.com/cmem/cmem/llm"
	"github.com/cmem/cmem/llm/redact"
)

// Aggregate joins the responses in turn order, dropping sentences already
// said (compared without case, spacing or closing punctuation); turns are
// separated by a blank line. With nothing to join it returns
// NoAgentAnswer.
func (o *Provider) Aggregate(ctx context.Context, req llm.AggregateRequest) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", fmt.Errorf("%w: %w", llm.ErrProvider, err)
	}
	seen := map[string]bool{}
	var parts []string
	for _, t := range req.Turns {
		var keep []string
		for _, s := range sentences(t.Response) {
			if k := sentenceKey(s); k != "" && !seen[k] {
				seen[k] = true
				keep = append(keep, s)
			}
		}
		if len(keep) > 0 {
			parts = append(parts, strings.Join(keep, " "))
		}
	}
	if len(parts) == 0 {
		return llm.NoAgentAnswer, nil
	}
	return strings.Join(parts, "\n\n"), nil
}

// Extract writes the interaction as one fragment: key = the query (white
// space squashed, at most 200 runes, cut at a word; the response's first
// sentence when the query is blank), value = the response. For the shared
// tier both have every rule of package redact applied, with req.Users as
// the names, so no user id, e-mail, phone, card or account number is
// shared. A blank response yields no fragment. Prompt is not used
// offline: the write prompts ask a model for what this does by rule.
func (o *Provider) Extract(ctx context.Context, req llm.ExtractRequest) ([]llm.KeyValue, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("%w: %w", llm.ErrProvider, err)
	}
	if req.Tier != llm.TierPrivate && req.Tier != llm.TierShared {
		return nil, fmt.Errorf("%w: %w %q", llm.ErrProvider, llm.ErrTier, req.Tier)
	}
	value := strings.TrimSpace(req.Response)
	if value == "" {
		return nil, nil
	}
	key := llm.Squash(req.Query)
	if key == "" {
		key = sentences(value)[0]
	}
	key = llm.TruncateWords(key, llm.MaxKeyRunes)
	if req.Tier == llm.TierShared {
		rules := redact.All(req.Users...)
		key, _ = redact.Apply(key, rules)
		value, _ = redact.Apply(value, rules)
	}
	return []llm.KeyValue{{Key: key, Value: value}}, nil
}

// Transform rewrites text. "redact" replaces e-mails, phones, card and
// account numbers by rules; "anonymize" does the same and also replaces
// the names Names returns; "paraphrase" is the light deterministic rewrite
// of paraphraseOffline: white space normalised, sentence order and wording
// kept, first-person pronouns neutralised. Other modes wrap llm.ErrMode.
func (o *Provider) Transform(ctx context.Context, mode, text string) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", fmt.Errorf("%w: %w", llm.ErrProvider, err)
	}
	switch mode {
	case llm.ModeRedact:
		out, _ := redact.Apply(text, redact.All())
		return out, nil
	case llm.ModeAnonymize:
		out, _ := redact.Apply(text, redact.All(o.names()...))
		return out, nil
	case llm.ModeParaphrase:
		return paraphraseOffline(text), nil
	}
	return "", fmt.Errorf("%w: %w %q", llm.ErrProvider, llm.ErrMode, mode)
}

func (o *Provider) names() []string {
	if o.cfg.Names == nil {
		return nil
	}
	return o.cfg.Names()
}
