package memory

import (
	"fmt"
	"regexp"

	"github.com/cmem/cmem/llm/redact"
)

// redactText applies the redact rules selected by c to text and returns
// notes saying what was replaced ("redacted 2 email").
func redactText(text string, c RedactConfig, users []string) (string, []string) {
	r := redact.Rules{Emails: on(c.Emails), Phones: on(c.Phones), Cards: on(c.Cards), IBANs: on(c.IBANs)}
	if on(c.UserNames) {
		r.Names = users
	}
	out, findings := redact.Apply(text, r)
	notes := make([]string, 0, len(findings))
	for _, f := range findings {
		notes = append(notes, fmt.Sprintf("redacted %d %s", f.Count, f.Kind))
	}
	return out, notes
}

// compileBlock compiles a block policy's patterns.
func compileBlock(c BlockConfig) ([]*regexp.Regexp, error) {
	if len(c.Patterns) == 0 {
		return nil, fmt.Errorf("%w: a block policy needs at least one pattern", ErrPolicyConfig)
	}
	res, err := redact.CompileBlock(c.Patterns)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrPolicyConfig, err)
	}
	return res, nil
}
