package redact

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
)

// Block reports whether text must not be written: ok is true when one of
// patterns matches, and matched is the first match of the first pattern
// that does (its first capturing group if it has one that took part), for
// the policy's audit event. Nil patterns are skipped.
func Block(text string, patterns []*regexp.Regexp) (matched string, ok bool) {
	for _, p := range patterns {
		if p == nil {
			continue
		}
		loc := p.FindStringSubmatchIndex(text)
		if loc == nil {
			continue
		}
		if len(loc) >= 4 && loc[2] >= 0 {
			return text[loc[2]:loc[3]], true
		}
		return text[loc[0]:loc[1]], true
	}
	return "", false
}

// CompileBlock compiles block patterns from configuration. Every invalid
// pattern is reported (errors joined, each wrapping ErrPattern).
func CompileBlock(patterns []string) ([]*regexp.Regexp, error) {
	out := make([]*regexp.Regexp, 0, len(patterns))
	var errs []error
	for _, p := range patterns {
		re, err := regexp.Compile(p)
		if err != nil {
			errs = append(errs, fmt.Errorf("%w: %q: %w", ErrPattern, p, err))
			continue
		}
		out = append(out, re)
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return out, nil
}

// Keywords returns a pattern that matches any of words whole-word and
// case-insensitively, or nil when words holds nothing but blanks. It is the
// paper's keyword filter expressed as a block pattern.
func Keywords(words ...string) *regexp.Regexp {
	var alts []string
	for _, w := range words {
		if w = strings.TrimSpace(w); w != "" {
			alts = append(alts, regexp.QuoteMeta(w))
		}
	}
	if len(alts) == 0 {
		return nil
	}
	return regexp.MustCompile(`(?i)(?:^|[^\p{L}\p{N}_])(` + strings.Join(alts, "|") + `)(?:$|[^\p{L}\p{N}_])`)
}
