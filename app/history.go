package app

import (
	"context"
	"fmt"

	"github.com/cmem/cmem/domain"
	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/projectors/memory"
)

// HistoryRequest asks for the versions of fragment ID's fact that the
// caller may read through Agent.
type HistoryRequest struct {
	Agent       string
	ID          string
	MinRevision uint64
}

// FragmentHistory serves GET /v1/fragments/{id}/history: every version of
// the fact of fragment ID that the caller may read through Agent now,
// shaped by the read policy and recorded as a MemoryRead. A fragment the
// caller may not read is not found, exactly as one that does not exist,
// and a version they may not read is left out without a trace, so a
// history never tells anyone that a fact they cannot see exists or
// changed.
func (a *App) FragmentHistory(ctx context.Context, by domain.Identity, req HistoryRequest) (domain.History, error) {
	if by.ID == AdminID {
		return domain.History{}, fmt.Errorf("%w: the bootstrap admin is not a user and has no memory", domain.ErrForbidden)
	}
	if err := events.CheckID(req.Agent); err != nil {
		return domain.History{}, fmt.Errorf("%w: agent: %w", domain.ErrInvalid, err)
	}
	if err := events.CheckID(req.ID); err != nil {
		return domain.History{}, fmt.Errorf("%w: %w", domain.ErrInvalid, err)
	}
	snap, err := a.Snapshot(ctx, req.MinRevision)
	if err != nil {
		return domain.History{}, err
	}
	if err := a.waitOn(ctx, a.viewFresh, req.MinRevision); err != nil {
		return domain.History{}, err
	}
	now, clock := snap.Point(), snap.Clock
	if !a.view.CanInvoke(by.ID, req.Agent, now) {
		return domain.History{}, fmt.Errorf("%w: %s may not invoke agent %s", domain.ErrForbidden, by.ID, req.Agent)
	}
	notFound := fmt.Errorf("%w: fragment %s", domain.ErrNotFound, req.ID)
	var readable []memory.FragmentInfo
	self := false
	for _, v := range a.fragments.Versions(req.ID) {
		if a.readable(by.ID, req.Agent, v, now) {
			readable = append(readable, v)
			self = self || v.ID == req.ID
		}
	}
	if !self {
		return domain.History{}, notFound
	}
	versions, trace, err := a.versionContent(ctx, by.ID, req.Agent, readable)
	if err != nil {
		return domain.History{}, err
	}
	if len(versions) == 0 {
		return domain.History{}, notFound // erased, or the read policy withheld it
	}
	ans := domain.History{Versions: versions, GraphRevision: snap.Revision, Current: versions[len(versions)-1].ID}
	read := &events.MemoryRead{User: by.ID, Agent: req.Agent, Query: "history of fragment " + req.ID,
		Private: []string{}, Shared: []string{}, GraphRevision: snap.Revision, Policy: trace}
	for _, v := range versions {
		if v.Tier == events.TierPrivate {
			read.Private = append(read.Private, v.ID)
		} else {
			read.Shared = append(read.Shared, v.ID)
		}
	}
	read.KUser, read.KCross = len(read.Private), len(read.Shared)
	if ans.Revision, err = a.appendAt(ctx, by, read, "", clock); err != nil {
		return domain.History{}, err
	}
	return ans, nil
}

// versionContent reads the content of readable (oldest observed first)
// from the vector view, shapes it by the read policy and links each version
// to the next one shown.
func (a *App) versionContent(ctx context.Context, user, agent string, readable []memory.FragmentInfo) ([]domain.FragmentVersion, events.PolicyTrace, error) {
	ids := make([]string, len(readable))
	for i, v := range readable {
		ids[i] = v.ID
	}
	stored, err := a.store.Get(ctx, ids)
	if err != nil {
		return nil, events.PolicyTrace{}, fmt.Errorf("%w: vector view: %w", domain.ErrUnavailable, err)
	}
	byID := make(map[string]domain.Fragment, len(stored))
	for _, f := range stored {
		byID[f.ID] = fromView(f)
	}
	items := make([]memory.Surfaced, 0, len(readable))
	for _, v := range readable {
		if f, ok := byID[v.ID]; ok {
			items = append(items, memory.Surfaced{ID: f.ID, Key: f.Key, Value: f.Value})
		}
	}
	pol := a.policies.Resolve(memory.TargetRead, user, agent, a.clockNow())
	shaped, trace, err := memory.ApplyRead(ctx, pol, items, a.llm)
	if err != nil {
		return nil, trace, providerUnavailable(err)
	}
	shown := make(map[string]memory.Surfaced, len(shaped))
	for _, s := range shaped {
		shown[s.ID] = s
	}
	var out []domain.FragmentVersion
	for _, v := range readable {
		s, ok := shown[v.ID]
		if !ok {
			continue
		}
		f := byID[v.ID]
		f.Key, f.Value = s.Key, s.Value
		out = append(out, domain.FragmentVersion{Fragment: f})
	}
	frs := make([]domain.Fragment, len(out))
	for i := range out {
		frs[i] = out[i].Fragment
	}
	a.withTime(frs)
	for i := range out {
		out[i].Fragment = frs[i]
		if i+1 < len(out) {
			next := frs[i+1].ObservedAt
			out[i].ValidUntil = &next
		}
	}
	return out, trace, nil
}
