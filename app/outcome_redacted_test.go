package app

import "testing"

// An answer is redacted exactly when a sentence rests on a summary and on
// nothing read in full; a summary's provenance is its -summary agent.
func TestRestsOnSummary(t *testing.T) {
	full := "The public Cedar Commons showcase is on May 10, 2026 in the main hall."
	sum := "Cedar Review hearing is set for May 8, 2026 with [redacted] attending."
	read := []string{full, sum}
	cases := []struct {
		answer string
		want   bool
	}{
		{"The public Cedar Commons showcase is on May 10, 2026 in the main hall.", false},
		{"Cedar Review hearing is set for May 8, 2026 with [redacted] attending.", true},
		{"The showcase is on May 10, 2026 in the main hall. The hearing is set for May 8, 2026 with [redacted] attending.", true},
		{"Nothing relevant.", false},
	}
	for _, c := range cases {
		if got := restsOnSummary(c.answer, "When is it?", read, []string{sum}); got != c.want {
			t.Errorf("restsOnSummary(%q) = %v, want %v", c.answer, got, c.want)
		}
	}
	if restsOnSummary(sum, "When is it?", read, nil) {
		t.Error("with no summary read, nothing rests on a summary")
	}
	if !summaryRead([]string{SummaryAgent("case_x")}) || summaryRead([]string{ScopeAgent("case_x")}) {
		t.Error("summaryRead must tell a summary agent from a scope agent")
	}
}
