package app

import (
	"context"
	"strings"

	"github.com/cmem/cmem/domain"
)

// Summary readers read a scope through its summary agent (SummaryAgent).
// What they read is written, at the time of the turn, beside each turn
// fragment: its redacted summary (redactSummary), whose provenance is the
// summary agents of the turn's scopes and which is derived from the
// original (DerivedFrom).
//
// Why at write time, with its own label, rather than redacting at read:
// M(u,a,t) stays the one decision — a summary reader's query admits only
// fragments whose provenance is inside their grants, exactly as any other
// read, and the original is never admitted to them, not even to be
// redacted on the way out. The declassification is one visible,
// auditable step (a FragmentWritten event whose policy notes say what was
// dropped), and it is complete under erasure: the summary is derived from
// the original, so DeleteFragment (and a spoken deletion) destroys its
// key with the original's, and EraseUser takes it with the speaker's
// fragments (it is written as the speaker's).
//
// A turn that goes to several scopes gets one summary whose provenance
// names each scope's summary agent: reading it needs a summary read of
// every one of them, the narrower reading, as for the original.

// writeSummaries writes the redacted summary of each turn fragment and
// returns the revision of the last; a turn with nothing left after
// redaction has no summary.
func (a *App) writeSummaries(ctx context.Context, by domain.Identity, frags []domain.Fragment, d ScopeDecision) (uint64, error) {
	agents := make([]string, len(d.Scopes))
	for i, s := range d.Scopes {
		agents[i] = SummaryAgent(s)
		if err := a.ensureAgent(ctx, domain.Identity{ID: by.ID, Admin: true}, agents[i], scopeDescription(s)+" (summary)"); err != nil {
			return 0, err
		}
	}
	keep := map[string]bool{}
	for _, s := range d.Scopes {
		for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return r == '_' || r == '-' }) {
			keep[w] = !genericWords[w]
		}
	}
	names := userNames(a.view.UserIDs())
	var rev uint64
	for _, f := range frags {
		text, dropped := redactSummary(f.Value, keep, names)
		if text = statements(text); text == "" {
			continue
		}
		r, err := a.writeCopy(ctx, by, f.ID, text, agents, "summary of "+f.ID+" for "+strings.Join(agents, ",")+" (restricted details removed; sentences dropped for: "+strings.Join(dropped, ",")+")")
		if err != nil {
			return rev, err
		}
		rev = max(rev, r)
	}
	return rev, nil
}
