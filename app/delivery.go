package app

import (
	"context"
	"fmt"
	"github.com/cmem/cmem/domain"

	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/projectors/access"
	"github.com/cmem/cmem/projectors/query"
)

// deliver renders q for its user on a fresh permission snapshot and records
// the delivery. Delivery is a read: each step and the answer is shown only
// while its label is admissible to the query's user (access.Admits with the
// user as reader); what is not is withheld with the reason. An admin reading
// another user's query sees what that user would.
func (a *App) deliver(ctx context.Context, by domain.Identity, q query.Query, channel string) (QueryAnswer, error) {
	snap, err := a.grantsSnapshot(ctx)
	if err != nil {
		return QueryAnswer{}, err
	}
	ans, rec := a.render(q, snap)
	ans = a.withOutcome(ctx, ans, q.Text)
	if len(q.Steps) == 0 && !q.Done {
		return ans, nil // nothing shown yet: nothing to record
	}
	rec.Channel = channel
	// Recorded at the clock its snapshot judged grant expiries against.
	if _, err := a.appendAt(ctx, by, rec, "", snap.Clock); err != nil {
		return QueryAnswer{}, err
	}
	return ans, nil
}

// render is q as its user may see it at snap, and the QueryDelivered event
// that records it (its Channel left to the caller).
func (a *App) render(q query.Query, snap Snapshot) (QueryAnswer, *events.QueryDelivered) {
	ans := QueryAnswer{ID: q.ID, Status: "pending", Steps: []QueryStep{}, GraphRevision: snap.Revision, AsOf: q.AsOf,
		FragmentsRead: nonNil(q.FragmentsRead), FragmentsWritten: nonNil(q.FragmentsWritten), Revision: q.Revision}
	rec := &events.QueryDelivered{QueryID: q.ID, User: q.User, GraphRevision: snap.Revision}
	var shown []events.Label
	for _, s := range q.Steps {
		st := QueryStep{Agent: s.Agent, Refused: s.Refused, ResourceCalls: []ResourceCall{}}
		l := stepLabel(s)
		if v := a.delivers(q.User, l, snap); !v.OK {
			st.Withheld = v.Reason(q.User)
			rec.Withheld = append(rec.Withheld, events.Withheld{Part: fmt.Sprintf("step %d", s.Round), Reason: st.Withheld})
		} else {
			st.Subquery, st.Response, st.Label, st.FragmentsCited = s.Subquery, s.Response, &l, s.Cited
			shown = append(shown, l)
		}
		for _, c := range s.ResourceCalls {
			rc := ResourceCall{Resource: c.Resource, DurationMS: c.DurationMS, Error: c.Error}
			if st.Withheld == "" {
				rc.Arguments = c.Arguments
			}
			st.ResourceCalls = append(st.ResourceCalls, rc)
		}
		ans.Steps = append(ans.Steps, st)
	}
	switch {
	case q.Failed():
		ans.Status, ans.Error = "failed", q.FailStage+": "+q.FailReason
	case q.Done:
		ans.Status = "answered"
		if v := a.delivers(q.User, q.Label, snap); !v.OK {
			ans.Withheld = v.Reason(q.User)
			rec.Withheld = append(rec.Withheld, events.Withheld{Part: "answer", Reason: ans.Withheld})
		} else {
			l := q.Label
			ans.Answer, ans.Label = q.Answer, &l
			shown = append(shown, l)
		}
	}
	rec.Status, rec.Label = ans.Status, events.Union(shown...)
	return ans, rec
}

// stepLabel is the label of everything a step shows: its subquery, its
// response and its tool calls' arguments.
func stepLabel(s query.Step) events.Label { return events.Union(s.SubqueryLabel, s.Label) }

// delivers is the read rule for content shown to the user itself.
func (a *App) delivers(user string, l events.Label, snap Snapshot) access.Verdict {
	return a.view.Admits(access.Reader{User: user}, access.Provenance{Agents: l.Agents, Resources: l.Resources}, snap.Point())
}
