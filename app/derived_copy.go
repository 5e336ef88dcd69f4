package app

import (
	"context"
	"errors"

	"github.com/cmem/cmem/domain"
	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/projectors/memory"
)

// writeCopy writes text, derived from fragment of, as a shared fragment
// of agents (a summary, a class read, a need-to-know read, a vault's
// outside): derived from its original, so erasing the original erases it,
// with note in its event saying what it is. It returns the write's
// revision, or 0 when the write policy refused it (refused and recorded
// as FragmentRejected: those readers get no copy).
func (a *App) writeCopy(ctx context.Context, by domain.Identity, of, text string, agents []string, note string) (uint64, error) {
	req := WriteRequest{Agent: agents[0], Resources: []string{}, Key: key(text), Value: text, Tier: events.TierShared,
		DerivedFrom: []string{of}, Notes: []string{note}}
	w, err := a.writeWith(ctx, by, req, memory.Provenance{Agents: events.SortedSet(agents), Resources: []string{}}, events.ProvenanceDirect)
	if errors.Is(err, domain.ErrPolicyRefused) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	return w.Revision, nil
}

// copyAgents are the agents, one per scope, through which a kind of copy
// of a turn of scopes is read (agentOf names a scope's), and whether all
// of them exist: a turn of several scopes is copied for a kind of read
// only when someone may read every one of its scopes so (the narrower
// reading, as for the original).
func (a *App) copyAgents(scopes []string, agentOf func(scope string) string) ([]string, bool) {
	agents := make([]string, len(scopes))
	read := true
	for i, s := range scopes {
		agents[i] = agentOf(s)
		read = read && a.projected("agents/", agents[i])
	}
	return agents, read
}
