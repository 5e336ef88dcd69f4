package app

import (
	"context"
	"sort"
	"strings"

	"github.com/cmem/cmem/domain"
)

// Class reads: a principal whose relationship is limited to one
// sensitivity class of a scope (campus IT "credentials only" on a case)
// reads that class of the scope and nothing else — not a summary, which
// drops exactly what they need. As with summaries (summary_write.go) the
// read is written at the time of the turn: beside each turn fragment, the
// sentences of it whose only sensitivity class is that class, written
// through the scope's class agent (ClassAgent) and derived from the
// original. M(u,a,t) stays the one decision — the class reader's query
// admits only class fragments, never the original — and erasure is
// complete: the copy is derived from the original, so deleting the
// original (by id or spoken) destroys it too. A sentence carrying any
// other class (a token said with a grade, a code with a diagnosis) is not
// copied: the narrower reading wins. Nothing is written for a scope no
// one reads by class, so deployments without class reads write nothing
// more.

// ClassAgent is the agent through which a scope's sentences of one
// sensitivity class are read.
func ClassAgent(scope, class string) string { return scopePrefix + scope + "-" + class }

// scopeBase is the scope an agent id (less scopePrefix) reads and whether
// it reads it in full: "case_x-summary", "case_x-steward" and
// "case_x-credentials" are case_x, not in full.
func scopeBase(id string) (string, bool) {
	if b, _, ok := withheldBase(id); ok {
		return b, false
	}
	for _, suf := range agentSuffixes() {
		if b, ok := strings.CutSuffix(id, suf); ok {
			return b, false
		}
	}
	return id, true
}

// agentSuffixes are the suffixes of a scope's agents other than its own.
func agentSuffixes() []string {
	out := []string{"-summary", "-steward"}
	for c := range sensitivityLexicon {
		out = append(out, "-"+c)
	}
	sort.Strings(out)
	return out
}

// writeClassReads writes, for each sensitivity class some principal reads
// every scope of d by, the sentences of each fragment in that class alone;
// it returns the revision of the last write.
func (a *App) writeClassReads(ctx context.Context, by domain.Identity, frags []domain.Fragment, d ScopeDecision) (uint64, error) {
	classes := make([]string, 0, len(sensitivityLexicon))
	for c := range sensitivityLexicon {
		classes = append(classes, c)
	}
	sort.Strings(classes)
	var rev uint64
	for _, c := range classes {
		agents, read := a.copyAgents(d.Scopes, func(s string) string { return ClassAgent(s, c) })
		if !read {
			continue
		}
		for _, f := range frags {
			text := classSentences(f.Value, c)
			if text == "" {
				continue
			}
			r, err := a.writeCopy(ctx, by, f.ID, text, agents, "class read of "+f.ID+" for "+strings.Join(agents, ",")+" (sentences of class "+c+" alone)")
			if err != nil {
				return rev, err
			}
			rev = max(rev, r)
		}
	}
	return rev, nil
}

// classSentences are the sentences of text whose only sensitivity class
// is class (a term two classes share counts as either), each with the
// sentence after it that only says how long it holds; joined.
func classSentences(text, class string) string {
	var kept []string
	prev := false // the sentence before was kept (class_read_terms.go)
	for _, s := range summarySentenceRE.FindAllString(text, -1) {
		cls := Sensitivity(s)
		keep := onlyClass(s, cls, class) || prev && len(cls) == 0 && termOfValidity(s, class)
		if keep {
			kept = append(kept, strings.TrimSpace(s))
		}
		prev = keep
	}
	return strings.Join(kept, " ")
}
