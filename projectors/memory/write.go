package memory

import (
	"context"
	"fmt"
	"strings"

	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/llm"
	"github.com/cmem/cmem/llm/redact"
)

// Draft is a fragment's content before it is written.
type Draft struct {
	Key   string
	Value string
}

// WriteEnv is what write policies may use besides the draft.
type WriteEnv struct {
	LLM   llm.Provider
	Users []string // registered user ids, for name redaction and shared extraction
}

// ApplyWrite runs write policy p on draft d for tier: it returns the
// fragments to write (one for simple, redact; one or more for llm) and the
// trace to record, or an error wrapping ErrBlocked when the policy refuses
// the write.
func ApplyWrite(ctx context.Context, p Policy, tier string, d Draft, env WriteEnv) ([]Draft, events.PolicyTrace, error) {
	tr := p.Trace()
	switch p.Kind {
	case "simple":
		return []Draft{d}, tr, nil
	case "redact":
		var c RedactConfig
		if err := strict(p.Config, &c); err != nil {
			return nil, tr, err
		}
		key, kn := redactText(d.Key, c, env.Users)
		value, vn := redactText(d.Value, c, env.Users)
		tr.Notes = mergeNotes(kn, vn)
		tr.Transformed = len(tr.Notes) > 0
		return []Draft{{Key: key, Value: value}}, tr, nil
	case "block":
		var c BlockConfig
		if err := strict(p.Config, &c); err != nil {
			return nil, tr, err
		}
		res, err := compileBlock(c)
		if err != nil {
			return nil, tr, err
		}
		for _, text := range []string{d.Key, d.Value} {
			if m, hit := redact.Block(text, res); hit {
				tr.Notes = []string{fmt.Sprintf("matched %q", m)}
				return nil, tr, fmt.Errorf("%w: content matches a blocked pattern (%q) of the block policy at scope %s", ErrBlocked, m, tr.Scope)
			}
		}
		return []Draft{d}, tr, nil
	case "llm":
		var c LLMWriteConfig
		if err := strict(p.Config, &c); err != nil {
			return nil, tr, err
		}
		kvs, err := env.LLM.Extract(ctx, llm.ExtractRequest{Tier: tier, Prompt: c.Prompt, Query: d.Key, Response: d.Value, Users: env.Users})
		if err != nil {
			return nil, tr, fmt.Errorf("memory: llm write policy: %w", err)
		}
		var out []Draft
		for _, kv := range kvs {
			if k := strings.TrimSpace(kv.Key); k != "" {
				out = append(out, Draft{Key: k, Value: strings.TrimSpace(kv.Value)})
			}
		}
		if len(out) == 0 {
			return nil, tr, fmt.Errorf("%w: the llm write policy extracted nothing to remember", ErrBlocked)
		}
		tr.Transformed = true
		tr.Notes = []string{fmt.Sprintf("extracted %d fragment(s) with %s", len(out), env.LLM.Name())}
		return out, tr, nil
	case "admission":
		return admit(ctx, p, tr, d, env)
	default:
		return nil, tr, fmt.Errorf("%w: unknown write policy kind %q", ErrPolicyConfig, p.Kind)
	}
}

func mergeNotes(a, b []string) []string {
	out := append([]string{}, a...)
	for _, n := range b {
		dup := false
		for _, m := range out {
			dup = dup || m == n
		}
		if !dup {
			out = append(out, n)
		}
	}
	return out
}

// admit runs an admission gate: the candidate is written only when its
// final score reaches the threshold; either way the trace records the
// score, the threshold and every rubric's range.
func admit(ctx context.Context, p Policy, tr events.PolicyTrace, d Draft, env WriteEnv) ([]Draft, events.PolicyTrace, error) {
	var c AdmissionConfig
	if err := strict(p.Config, &c); err != nil {
		return nil, tr, err
	}
	scores, err := env.LLM.Score(ctx, llm.ScoreRequest{Prompt: c.Prompt, Rubrics: c.Rubrics, Key: d.Key, Value: d.Value})
	if err != nil {
		return nil, tr, fmt.Errorf("memory: admission gate: %w", err)
	}
	adm := &events.Admission{Score: llm.FinalScore(scores), Threshold: c.Threshold, Scorer: env.LLM.Name()}
	for _, s := range scores {
		adm.Rubrics = append(adm.Rubrics, events.RubricRange{Name: s.Name, Low: s.Low, High: s.High})
	}
	tr.Admission = adm
	if adm.Score < adm.Threshold {
		return nil, tr, fmt.Errorf("%w: admission score %.2f is below the threshold %.2f of the admission gate at scope %s",
			ErrBlocked, adm.Score, adm.Threshold, tr.Scope)
	}
	return []Draft{d}, tr, nil
}
