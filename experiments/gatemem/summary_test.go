package gatemem

import (
	"context"
	"strings"
	"testing"
)

// A summary reader's question about the scope is answered from its
// redacted summary: outcome answer_redacted, the plain fact in it, no
// restricted detail in the answer or its steps (no over-refusal, no leak).
// Erasing the original erases its summary: the summary reader reads
// neither afterwards.
func TestSummaryReaderGetsRedactedAnswer(t *testing.T) {
	a, tok := org(t)
	ctx := context.Background()
	say(t, a, tok["ava"], "Heron launch window is May 21, 2026. The Heron budget is 84,000 EUR.")
	say(t, a, tok["ava"], "Heron staging passphrase is heron-blue-7731 for the dry run.")
	q, err := a.ask(ctx, tok["theo"], "When is the Heron launch window?")
	if err != nil {
		t.Fatal(err)
	}
	all := q.Answer
	for _, s := range q.Steps {
		all += " " + s.Response
	}
	if q.Outcome != "answer_redacted" || !strings.Contains(q.Answer, "May 21, 2026") {
		t.Errorf("summary reader: outcome %q, answer %q; want answer_redacted with the date", q.Outcome, q.Answer)
	}
	for _, secret := range []string{"84,000", "heron-blue-7731", "7731"} {
		if strings.Contains(all, secret) {
			t.Errorf("the summary reader's answer carries %q: %q", secret, all)
		}
	}
	// The harness shows the summaries the answer read as its context:
	// they are copies no turn's answer returned (copyText).
	r := &episodeRun{api: a}
	var agents []string
	for _, s := range q.Steps {
		agents = append(agents, s.Agent)
	}
	var shown string
	for _, id := range q.FragmentsRead {
		shown += r.copyText(ctx, tok["theo"], id, agents) + " "
	}
	if !strings.Contains(shown, "May 21, 2026") || strings.Contains(shown, "84,000") || strings.Contains(shown, "7731") {
		t.Errorf("the summaries read, as the harness shows them: %q (read %v through %v)", shown, q.FragmentsRead, agents)
	}
	if got := view(t, a, tok["theo"], "project_heron-summary", "Heron launch budget passphrase"); !strings.Contains(got, "May 21, 2026") ||
		strings.Contains(got, "84,000") || strings.Contains(got, "7731") {
		t.Errorf("the summary view: %q", got)
	}
	// Erasure of the original takes its summary.
	ans := say(t, a, tok["ava"], "Please delete the Heron launch window 'May 21, 2026' from memory.")
	applied := false
	for _, g := range ans.Governance {
		applied = applied || g.Applied
	}
	if !applied {
		t.Fatalf("the steward's deletion was not applied: %+v", ans.Governance)
	}
	if got := view(t, a, tok["theo"], "project_heron-summary", "Heron launch window"); strings.Contains(got, "May 21") {
		t.Errorf("the summary outlived the erasure of its original: %q", got)
	}
}
