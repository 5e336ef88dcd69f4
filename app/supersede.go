package app

import (
	"context"
	"log/slog"
	"strconv"

	"github.com/cmem/cmem/domain"
	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/llm"
	"github.com/cmem/cmem/projectors/access"
	"github.com/cmem/cmem/projectors/memory"
)

// Supersession (mem0's UPDATE): a fragment just written is a new version of
// the fact of an earlier fragment with the same subject and attribute (the
// offline rule, memory.SameFact). Only fragments the writer may read
// through the agent now are candidates: a write never learns of, and is
// never tied to, a fact its writer could not see. Of those, the latest
// observed is the one it supersedes. Which version is current is then
// decided per reader at read time (current.go): the latest observed
// version that reader may read, so nobody learns of a version they could
// not read, and a reader who cannot read the newest keeps the one they can.
//
// mem0's other decisions: ADD is a write that matches nothing; NOOP (the
// same fact again) is still written and supersedes the earlier one, which
// keeps the history of when it was last observed; DELETE is DELETE
// /v1/fragments/{id}. With a model that judges facts (llm.FactJudge) and
// no match by the rule, the model is asked about the nearest fragments the
// writer may read (supersede_model.go).

// supersede appends a FragmentSuperseded for fw when a version of its fact
// readable by its writer exists; it returns the superseded id ("" when
// none) and the event's revision.
func (a *App) supersede(ctx context.Context, by domain.Identity, req WriteRequest, fw *events.FragmentWritten, i int) (string, uint64, error) {
	fact := memory.FactKey(fw.Key)
	_, judges := llm.JudgeOf(a.llm)
	if fact == "" && !judges {
		return "", 0, nil
	}
	// The registry must hold every earlier write, this gateway's and
	// others', before it can say which version is the writer's current one.
	if err := a.fence(ctx, "fragments/", 0); err != nil {
		return "", 0, err
	}
	snap, err := a.Snapshot(ctx, 0)
	if err != nil {
		return "", 0, err
	}
	now := snap.Point()
	self := memory.FragmentInfo{ID: fw.ID, Tier: fw.Tier, User: fw.User, Fact: fact}
	var old memory.FragmentInfo
	for _, c := range a.fragments.SameFactAs(self) {
		if !a.readable(by.ID, req.Agent, c, now) {
			continue
		}
		if old.ID == "" || c.ObservedAt.After(old.ObservedAt) || c.ObservedAt.Equal(old.ObservedAt) && c.Revision > old.Revision {
			old = c
		}
	}
	decision := memory.RuleSameKey
	if old.ID == "" {
		if old, decision = a.judged(ctx, by.ID, req.Agent, fw, now); old.ID == "" {
			return "", 0, nil
		}
	}
	step := ""
	if req.StepID != "" {
		step = events.StepID(req.StepID, "supersede", strconv.Itoa(i))
	}
	rev, err := a.appendStep(ctx, by, &events.FragmentSuperseded{Old: old.ID, New: fw.ID, User: by.ID, Agent: req.Agent,
		Tier: fw.Tier, Agents: fw.Agents, Resources: fw.Resources, Decision: decision}, false, step)
	return old.ID, rev, err
}

// readable reports whether user may read fragment f through agent at now:
// the read rule on its provenance, and a private fragment only by its
// owner. Every supersession decision goes through it.
func (a *App) readable(user, agent string, f memory.FragmentInfo, now access.Point) bool {
	if f.Tier == events.TierPrivate && f.User != user {
		return false
	}
	return a.view.Admissible(user, agent, access.Provenance{Agents: f.Agents, Resources: f.Resources}, now)
}

// supersedeAnswer is supersede for a write's answer: a failure to record
// the supersession is logged and the write stands (it is in the log; the
// two versions are then both current until the next write of the fact).
func (a *App) supersedeAnswer(ctx context.Context, by domain.Identity, req WriteRequest, fw *events.FragmentWritten, i int) (string, uint64) {
	old, rev, err := a.supersede(ctx, by, req, fw, i)
	if err != nil {
		slog.Warn("supersession not recorded; the write stands", "fragment", fw.ID, "err", err)
		return "", 0
	}
	return old, rev
}
