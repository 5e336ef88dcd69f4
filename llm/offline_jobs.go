package llm

import (
	"context"
	"fmt"
	"strings"

	"github.com/cmem/cmem/redact"
)

// Aggregate joins the responses in turn order, dropping sentences already
// said (compared without case, spacing or closing punctuation); turns are
// separated by a blank line. With nothing to join it returns
// NoAgentAnswer.
func (o *Offline) Aggregate(ctx context.Context, req AggregateRequest) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", fmt.Errorf("%w: %w", ErrProvider, err)
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
		return NoAgentAnswer, nil
	}
	return strings.Join(parts, "\n\n"), nil
}

// NothingRelevantAnswer is the answer when the coordinator found no agent
// relevant to the query among those it considered (A(u,t)): it says so and
// names them, so the user knows the question was read and whom to ask
// for access. With no agent at all it is NoAgentAnswer.
func NothingRelevantAnswer(considered []string) string {
	if len(considered) == 0 {
		return NoAgentAnswer
	}
	return fmt.Sprintf("None of your agents has information relevant to this question (considered: %s).",
		strings.Join(considered, ", "))
}

// Extract writes the interaction as one fragment: key = the query (white
// space squashed, at most 200 runes, cut at a word; the response's first
// sentence when the query is blank), value = the response. For the shared
// tier both have every rule of package redact applied, with req.Users as
// the names, so no user id, e-mail, phone, card or account number is
// shared. A blank response yields no fragment. Prompt is not used
// offline: the write prompts ask a model for what this does by rule.
func (o *Offline) Extract(ctx context.Context, req ExtractRequest) ([]KeyValue, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrProvider, err)
	}
	if req.Tier != TierPrivate && req.Tier != TierShared {
		return nil, fmt.Errorf("%w: %w %q", ErrProvider, ErrTier, req.Tier)
	}
	value := strings.TrimSpace(req.Response)
	if value == "" {
		return nil, nil
	}
	key := squash(req.Query)
	if key == "" {
		key = sentences(value)[0]
	}
	key = truncateWords(key, maxKeyRunes)
	if req.Tier == TierShared {
		rules := redact.All(req.Users...)
		key, _ = redact.Apply(key, rules)
		value, _ = redact.Apply(value, rules)
	}
	return []KeyValue{{Key: key, Value: value}}, nil
}

// Transform rewrites text. "redact" replaces e-mails, phones, card and
// account numbers by rules; "anonymize" does the same and also replaces
// the names Names returns; "paraphrase" is the light deterministic rewrite
// of paraphraseOffline: white space normalised, sentence order and wording
// kept, first-person pronouns neutralised. Other modes wrap ErrMode.
func (o *Offline) Transform(ctx context.Context, mode, text string) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", fmt.Errorf("%w: %w", ErrProvider, err)
	}
	switch mode {
	case ModeRedact:
		out, _ := redact.Apply(text, redact.All())
		return out, nil
	case ModeAnonymize:
		out, _ := redact.Apply(text, redact.All(o.names()...))
		return out, nil
	case ModeParaphrase:
		return paraphraseOffline(text), nil
	}
	return "", fmt.Errorf("%w: %w %q", ErrProvider, ErrMode, mode)
}

func (o *Offline) names() []string {
	if o.cfg.Names == nil {
		return nil
	}
	return o.cfg.Names()
}
