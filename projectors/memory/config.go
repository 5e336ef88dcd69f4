package memory

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/llm"
)

// Kinds per target.
var kinds = map[string][]string{
	TargetWritePrivate: {"simple", "redact", "block", "llm"},
	TargetWriteShared:  {"simple", "redact", "block", "llm", "admission"},
	TargetRead:         {"simple", "filter", "llm"},
	TargetProvenance:   {events.ProvenanceTransitive, events.ProvenanceDirect},
	TargetCoordination: {CoordinationCentralized, CoordinationDecentralized, CoordinationLayered, CoordinationSharedPool},
}

// CoordinationConfig tunes a coordination scheme. Participants is "all"
// (every agent the user may invoke: the all-domain setting of seed 004 §5,
// the default) or "expert" (only the agents the coordinator picks for the
// query one after another: those whose domain concerns it);
// Rounds bounds the rounds of the decentralized and shared-pool schemes
// (default: one per participant), always within the pipeline's MaxRounds.
type CoordinationConfig struct {
	Participants string `json:"participants,omitempty"`
	Rounds       int    `json:"rounds,omitempty"`
}

// RedactConfig selects what a redact policy replaces; a missing field is on.
type RedactConfig struct {
	Emails    *bool `json:"emails,omitempty"`
	Phones    *bool `json:"phones,omitempty"`
	Cards     *bool `json:"cards,omitempty"`
	IBANs     *bool `json:"ibans,omitempty"`
	UserNames *bool `json:"user_names,omitempty"`
}

// BlockConfig lists RE2 patterns; a fragment whose key or value matches
// any is refused.
type BlockConfig struct {
	Patterns []string `json:"patterns"`
}

// LLMWriteConfig overrides the paper's Table 1 prompt of the tier.
type LLMWriteConfig struct {
	Prompt string `json:"prompt,omitempty"`
}

// AdmissionConfig is an admission gate on the shared tier (seed 002 §3.1):
// a candidate is scored on every rubric (a range within [min, max]) and
// admitted only when its final score, ½(Σ low + Σ high) (Eq. 1), reaches
// Threshold. Prompt overrides the scorer's prompt.
type AdmissionConfig struct {
	Rubrics   []llm.Rubric `json:"rubrics"`
	Threshold float64      `json:"threshold"`
	Prompt    string       `json:"prompt,omitempty"`
}

func checkAdmission(c AdmissionConfig) error {
	if len(c.Rubrics) == 0 || len(c.Rubrics) > 32 {
		return fmt.Errorf("%w: an admission gate needs 1..32 rubrics", ErrPolicyConfig)
	}
	var lo, hi float64
	seen := map[string]bool{}
	for _, r := range c.Rubrics {
		switch {
		case r.Name == "" || seen[r.Name]:
			return fmt.Errorf("%w: rubric names must be present and distinct (%q)", ErrPolicyConfig, r.Name)
		case !(r.Min < r.Max):
			return fmt.Errorf("%w: rubric %q needs min < max", ErrPolicyConfig, r.Name)
		}
		seen[r.Name] = true
		lo, hi = lo+r.Min, hi+r.Max
	}
	if c.Threshold < lo || c.Threshold > hi {
		return fmt.Errorf("%w: threshold %g is outside the reachable scores %g..%g", ErrPolicyConfig, c.Threshold, lo, hi)
	}
	return nil
}

// ReadConfig shapes a memory view: keep only fragments mentioning any of
// Keywords (all of them with Match "all"), at most Limit per tier, and with
// kind llm rewrite each surfaced value with Transform (redact, anonymize or
// paraphrase).
type ReadConfig struct {
	Keywords  []string `json:"keywords,omitempty"`
	Match     string   `json:"match,omitempty"`
	Limit     int      `json:"limit,omitempty"`
	Transform string   `json:"transform,omitempty"`
}

// CheckPolicy reports whether kind and config make a valid policy for
// target, so that a bad policy is refused when set, not when first used.
func CheckPolicy(target, kind string, config json.RawMessage) error {
	allowed, ok := kinds[target]
	if !ok {
		return fmt.Errorf("%w: unknown target %q (want write_private, write_shared, read, provenance or coordination)", ErrPolicyConfig, target)
	}
	found := false
	for _, k := range allowed {
		found = found || k == kind
	}
	if !found {
		return fmt.Errorf("%w: kind %q is not one of %v for %s", ErrPolicyConfig, kind, allowed, target)
	}
	switch {
	case kind == "admission":
		var c AdmissionConfig
		if err := strict(config, &c); err != nil {
			return err
		}
		return checkAdmission(c)
	case kind == "redact":
		var c RedactConfig
		return strict(config, &c)
	case kind == "block":
		var c BlockConfig
		if err := strict(config, &c); err != nil {
			return err
		}
		_, err := compileBlock(c)
		return err
	case kind == "llm" && target != TargetRead:
		var c LLMWriteConfig
		return strict(config, &c)
	case target == TargetCoordination:
		var c CoordinationConfig
		if err := strict(config, &c); err != nil {
			return err
		}
		if c.Participants != "" && c.Participants != "all" && c.Participants != "expert" {
			return fmt.Errorf("%w: participants must be all or expert", ErrPolicyConfig)
		}
		if c.Rounds < 0 || c.Rounds > 32 {
			return fmt.Errorf("%w: rounds must be within 0..32", ErrPolicyConfig)
		}
		return nil
	case target == TargetRead:
		var c ReadConfig
		if err := strict(config, &c); err != nil {
			return err
		}
		return checkRead(kind, c)
	}
	if len(bytes.TrimSpace(config)) > 0 && string(bytes.TrimSpace(config)) != "{}" {
		return fmt.Errorf("%w: kind %q takes no config", ErrPolicyConfig, kind)
	}
	return nil
}

func checkRead(kind string, c ReadConfig) error {
	if c.Limit < 0 {
		return fmt.Errorf("%w: limit must not be negative", ErrPolicyConfig)
	}
	if c.Match != "" && c.Match != "any" && c.Match != "all" {
		return fmt.Errorf("%w: match must be any or all", ErrPolicyConfig)
	}
	switch {
	case kind == "llm" && c.Transform != "redact" && c.Transform != "anonymize" && c.Transform != "paraphrase":
		return fmt.Errorf("%w: an llm read policy needs transform redact, anonymize or paraphrase", ErrPolicyConfig)
	case kind != "llm" && c.Transform != "":
		return fmt.Errorf("%w: transform needs kind llm", ErrPolicyConfig)
	}
	return nil
}

// strict decodes config into v refusing unknown fields; empty means zero.
func strict(config json.RawMessage, v any) error {
	if len(bytes.TrimSpace(config)) == 0 {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(config))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("%w: config: %w", ErrPolicyConfig, err)
	}
	return nil
}

func on(b *bool) bool { return b == nil || *b }
