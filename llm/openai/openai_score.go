package openai

import (
	"context"
	"fmt"
	"strings"

	"github.com/cmem/cmem/llm"
)

const scoreFormat = `Reply with JSON only: {"scores": [{"name": "<rubric name>", "low": <lowest>, "high": <highest>}]}, ` +
	`one entry per rubric.`

// Score asks the model for a score range per rubric (seed 002 App. A.5).
// A reply that leaves out a rubric is an error wrapping llm.ErrProvider; ranges
// outside a rubric's bounds are clamped into them.
func (p *Provider) Score(ctx context.Context, req llm.ScoreRequest) ([]llm.RubricScore, error) {
	var b strings.Builder
	b.WriteString("Rubrics:\n")
	for _, r := range req.Rubrics {
		fmt.Fprintf(&b, "- %s (%g to %g): %s\n", r.Name, r.Min, r.Max, llm.Squash(r.Description))
	}
	fmt.Fprintf(&b, "\nPair:\nPrompt: %s\nAnswer: %s\n\n%s", strings.TrimSpace(req.Key), strings.TrimSpace(req.Value), scoreFormat)
	var reply struct {
		Scores []llm.RubricScore `json:"scores"`
	}
	if err := p.chatJSON(ctx, orDefault(req.Prompt, p.cfg.Prompts.Scorer), b.String(), &reply); err != nil {
		return nil, err
	}
	got := map[string]llm.RubricScore{}
	for _, s := range reply.Scores {
		got[s.Name] = s
	}
	out := make([]llm.RubricScore, 0, len(req.Rubrics))
	for _, r := range req.Rubrics {
		s, ok := got[r.Name]
		if !ok {
			return nil, fmt.Errorf("%w: the scorer gave no range for rubric %q", llm.ErrProvider, r.Name)
		}
		low, high := r.Clamp(s.Low, s.High)
		out = append(out, llm.RubricScore{Name: r.Name, Low: low, High: high})
	}
	return out, nil
}
