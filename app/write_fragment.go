package app

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/cmem/cmem/domain"
	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/projectors/access"
	"github.com/cmem/cmem/projectors/memory"
)

// WriteRequest is a user writing memory through an agent, as an app that
// runs its own agents does.
type WriteRequest struct {
	Agent       string
	Resources   []string
	Key         string
	Value       string
	Tier        string
	DerivedFrom []string
	QueryID     string
	// SourceEvent is the id of the event whose content is remembered (an
	// AgentResponded in the pipeline); empty for a direct API write.
	SourceEvent string
	// StepID, set by a worker, derives fragment and event ids from the step
	// so a step run twice writes each fragment once.
	StepID string
	// ObservedAt is when the fact was observed or is about (valid time);
	// zero means the write time. See CheckObservedAt for its range.
	ObservedAt time.Time
	// Notes are decisions made before the write policy ran (a turn's
	// scope and sensitivity), recorded in the event's policy trace.
	Notes []string
}

// WriteAnswer is what was written, and the revision of the last event.
type WriteAnswer struct {
	Fragments []domain.Fragment `json:"fragments"`
	Revision  uint64            `json:"revision"`
}

// WriteFragment checks that the caller may write through req.Agent with
// req.Resources now and may read every source it derives from, derives the
// provenance, runs the write policy of the tier, embeds and appends the
// fragments. A refused write is recorded as FragmentRejected.
func (a *App) WriteFragment(ctx context.Context, by domain.Identity, req WriteRequest) (WriteAnswer, error) {
	if err := a.checkWrite(by, &req); err != nil {
		return WriteAnswer{}, err
	}
	snap, err := a.Snapshot(ctx, 0)
	if err != nil {
		return WriteAnswer{}, err
	}
	now := snap.Point()
	if !a.view.CanInvoke(by.ID, req.Agent, now) {
		return WriteAnswer{}, fmt.Errorf("%w: %s may not invoke agent %s", domain.ErrForbidden, by.ID, req.Agent)
	}
	for _, r := range req.Resources {
		if !a.view.CanUse(req.Agent, r, now) {
			return WriteAnswer{}, fmt.Errorf("%w: agent %s may not use resource %s", domain.ErrForbidden, req.Agent, r)
		}
	}
	sources, err := a.sources(ctx, by.ID, req.Agent, req.DerivedFrom, now)
	if err != nil {
		return WriteAnswer{}, err
	}
	mode := a.policies.Resolve(memory.TargetProvenance, by.ID, req.Agent, a.clockNow())
	return a.writeWith(ctx, by, req, memory.Derive(mode.Kind, req.Agent, req.Resources, sources), mode.Kind)
}

// writeWith runs the tier's write policy on a write whose provenance is
// settled and appends the fragments; a refusal is recorded as
// FragmentRejected.
func (a *App) writeWith(ctx context.Context, by domain.Identity, req WriteRequest, prov memory.Provenance, mode string) (WriteAnswer, error) {
	pol := a.policies.Resolve(memory.WriteTarget(req.Tier), by.ID, req.Agent, a.clockNow())
	drafts, trace, err := memory.ApplyWrite(ctx, pol, req.Tier, memory.Draft{Key: req.Key, Value: req.Value},
		memory.WriteEnv{LLM: a.llm, Users: a.view.UserIDs()})
	if errors.Is(err, memory.ErrBlocked) {
		rej := &events.FragmentRejected{User: by.ID, Agent: req.Agent, Tier: req.Tier, Reason: err.Error(), QueryID: req.QueryID, Policy: trace}
		if _, aerr := a.append(ctx, by, rej, false); aerr != nil {
			return WriteAnswer{}, aerr
		}
		return WriteAnswer{}, fmt.Errorf("%w: %w", domain.ErrPolicyRefused, err)
	}
	if err != nil {
		return WriteAnswer{}, providerUnavailable(err)
	}
	trace.Notes = append(append([]string(nil), req.Notes...), trace.Notes...)
	return a.appendFragments(ctx, by, req, prov, mode, trace, drafts)
}

func (a *App) checkWrite(by domain.Identity, req *WriteRequest) error {
	if by.ID == AdminID {
		return fmt.Errorf("%w: the bootstrap admin is not a user and has no memory; write as a registered user", domain.ErrForbidden)
	}
	if req.Tier != events.TierPrivate && req.Tier != events.TierShared {
		return fmt.Errorf("%w: tier must be %q or %q", domain.ErrInvalid, events.TierPrivate, events.TierShared)
	}
	if strings.TrimSpace(req.Key) == "" {
		return fmt.Errorf("%w: key must not be empty", domain.ErrInvalid)
	}
	if len(req.Key) > 4096 || len(req.Value) > 262144 {
		return fmt.Errorf("%w: key is limited to 4096 bytes and value to 256 KiB", domain.ErrInvalid)
	}
	if err := CheckObservedAt(req.ObservedAt, a.clockNow()); err != nil {
		return err
	}
	if err := checkContent(req.Key, req.Value); err != nil {
		return err
	}
	for _, id := range append([]string{req.Agent}, req.Resources...) {
		if err := events.CheckID(id); err != nil {
			return fmt.Errorf("%w: %w", domain.ErrInvalid, err)
		}
	}
	for _, id := range req.DerivedFrom {
		if err := events.CheckID(id); err != nil {
			return fmt.Errorf("%w: derived_from: %w", domain.ErrInvalid, err)
		}
	}
	return nil
}

// sources returns the provenance of every fragment the write derives from;
// each must exist and be admissible to (user, agent) now.
func (a *App) sources(ctx context.Context, user, agent string, ids []string, now access.Point) ([]memory.Provenance, error) {
	out := make([]memory.Provenance, 0, len(ids))
	for _, id := range ids {
		f, ok := a.fragments.Get(id)
		if !ok { // written a moment ago through another gateway?
			if err := a.fence(ctx, "fragments/", 0); err != nil {
				return nil, err
			}
			if f, ok = a.fragments.Get(id); !ok {
				return nil, fmt.Errorf("%w: fragment %s", domain.ErrNotFound, id)
			}
		}
		if f.Tier == events.TierPrivate && f.User != user ||
			!a.view.Admissible(user, agent, access.Provenance{Agents: f.Agents, Resources: f.Resources}, now) {
			return nil, fmt.Errorf("%w: fragment %s is not readable by %s through %s", domain.ErrForbidden, id, user, agent)
		}
		out = append(out, f.Provenance())
	}
	return out, nil
}

func (a *App) appendFragments(ctx context.Context, by domain.Identity, req WriteRequest, prov memory.Provenance,
	mode string, trace events.PolicyTrace, drafts []memory.Draft) (WriteAnswer, error) {
	keys := make([]string, len(drafts))
	for i, d := range drafts {
		keys[i] = d.Key
	}
	vecs, err := a.embedder.Embed(ctx, keys)
	if err != nil {
		return WriteAnswer{}, fmt.Errorf("%w: embed: %w", domain.ErrUnavailable, err)
	}
	var ans WriteAnswer
	for i, d := range drafts {
		id, err := fragmentID(req.StepID, i)
		if err != nil {
			return WriteAnswer{}, err
		}
		meta := a.meta(ctx, by)
		if req.StepID != "" {
			meta.ID = events.StepID(req.StepID, "event", strconv.Itoa(i))
		}
		meta.Time = time.Now().UTC()
		meta.CausationID = req.SourceEvent
		fw := &events.FragmentWritten{
			ID: id, Key: d.Key, Value: d.Value, Tier: req.Tier, User: by.ID,
			Agents: prov.Agents, Resources: prov.Resources, CreatedAt: meta.Time, SourceEvent: req.SourceEvent,
			QueryID: req.QueryID, DerivedFrom: req.DerivedFrom, Provenance: mode, Policy: trace,
			Embedding: &events.Embedding{Model: a.embedder.Model(), Dims: len(vecs[i]), Vector: events.EncodeVector(vecs[i])},
		}
		stampTime(fw, req.ObservedAt, meta.Time)
		e, err := events.New(meta, fw)
		if err != nil {
			return WriteAnswer{}, err
		}
		rev, err := a.log.Append(ctx, e, false)
		if err != nil {
			return WriteAnswer{}, err
		}
		ans.Revision = rev
		f := domain.Fragment{ID: fw.ID, Key: fw.Key, Value: fw.Value, Tier: fw.Tier, User: fw.User,
			Agents: fw.Agents, Resources: fw.Resources, CreatedAt: e.Time, Revision: rev, ObservedAt: fw.ObservedTime(), TimeRefs: timeRefs(fw.TimeRefs)}
		if trace.Admission != nil {
			score := trace.Admission.Score
			f.AdmissionScore = &score
		}
		f.Supersedes, rev = a.supersedeAnswer(ctx, by, req, fw, i)
		ans.Revision = max(ans.Revision, rev)
		ans.Fragments = append(ans.Fragments, f)
	}
	return ans, nil
}

func fragmentID(step string, i int) (string, error) {
	if step != "" {
		return events.StepID(step, "fragment", strconv.Itoa(i)), nil
	}
	u, err := uuid.NewV7()
	if err != nil {
		return "", err
	}
	return u.String(), nil
}
