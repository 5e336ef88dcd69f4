package memory

import (
	"context"
	"fmt"
	"strings"

	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/llm"
)

// Surfaced is one fragment of a memory view as the read policy sees it.
type Surfaced struct {
	ID    string
	Key   string
	Value string
}

// ApplyRead runs read policy p over one tier's ranked fragments: keyword
// filter, limit, then (kind llm) a transformation of each surfaced value.
// The order is kept.
func ApplyRead(ctx context.Context, p Policy, items []Surfaced, provider llm.Provider) ([]Surfaced, events.PolicyTrace, error) {
	tr := p.Trace()
	if p.Kind == "simple" {
		return items, tr, nil
	}
	var c ReadConfig
	if err := strict(p.Config, &c); err != nil {
		return nil, tr, err
	}
	out := items[:0:0]
	for _, it := range items {
		if matches(it, c) {
			out = append(out, it)
		}
	}
	if c.Limit > 0 && len(out) > c.Limit {
		out = out[:c.Limit]
	}
	if p.Kind == "llm" {
		for i := range out {
			v, err := provider.Transform(ctx, c.Transform, out[i].Value)
			if err != nil {
				return nil, tr, fmt.Errorf("memory: read transform: %w", err)
			}
			tr.Transformed = tr.Transformed || v != out[i].Value
			out[i].Value = v
		}
		tr.Notes = []string{c.Transform + " with " + provider.Name()}
	}
	return out, tr, nil
}

func matches(it Surfaced, c ReadConfig) bool {
	if len(c.Keywords) == 0 {
		return true
	}
	text := strings.ToLower(it.Key + " " + it.Value)
	all := c.Match == "all"
	for _, k := range c.Keywords {
		hit := strings.Contains(text, strings.ToLower(k))
		if hit && !all {
			return true
		}
		if !hit && all {
			return false
		}
	}
	return all
}
