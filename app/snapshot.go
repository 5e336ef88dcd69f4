package app

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/cmem/cmem/domain"
	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/projectors/access"
)

// Snapshot is the permission state a decision is made on: the access
// graphs and policies at one revision that includes every grant, revoke and
// policy change acknowledged before the snapshot was taken. A pipeline stage
// takes one and passes it down; only a tool call, which may come long after
// its stage began, takes a fresh one.
type Snapshot struct {
	// Revision is the access projection's revision when the snapshot was
	// taken (at least the newest acknowledged permission event).
	Revision uint64
	// Clock is this process's wall clock when the snapshot was taken: grant
	// expiries are judged against it (access.Now). Zero judges by revision
	// only.
	Clock time.Time
}

// Point is where the graphs are asked about for this snapshot: the
// revision, minus every grant whose expiry is at or before Clock.
func (s Snapshot) Point() access.Point {
	if s.Clock.IsZero() {
		return access.AtRevision(s.Revision)
	}
	return access.Now(s.Revision, s.Clock)
}

// Snapshot waits until the projections include every acknowledged grant,
// revoke and policy change, and at least minRevision, and returns that
// state. Reading the heads from the stream leader before deciding is what
// makes "a read that starts after a revoke was acknowledged never sees the
// graph before it" hold across gateways. The two heads are asked for at
// once: one round trip of latency.
func (a *App) Snapshot(ctx context.Context, minRevision uint64) (Snapshot, error) {
	return a.snapshot(ctx, minRevision, events.GrantsSubjectPrefix, events.PolicySubjectPrefix)
}

// grantsSnapshot is Snapshot for a decision that reads no policy (a tool
// call's re-check, a delivery): one head, one round trip.
func (a *App) grantsSnapshot(ctx context.Context) (Snapshot, error) {
	return a.snapshot(ctx, 0, events.GrantsSubjectPrefix)
}

func (a *App) snapshot(ctx context.Context, minRevision uint64, filters ...string) (Snapshot, error) {
	heads := make([]uint64, len(filters))
	errs := make([]error, len(filters))
	var wg sync.WaitGroup
	for i, f := range filters {
		wg.Go(func() { heads[i], errs[i] = a.log.Head(ctx, f) })
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return Snapshot{}, fmt.Errorf("%w: read fence: %w", domain.ErrUnavailable, err)
	}
	need := minRevision
	for _, h := range heads {
		need = max(need, h)
	}
	if err := a.waitFor(ctx, need); err != nil {
		return Snapshot{}, err
	}
	return Snapshot{Revision: a.view.Revision(), Clock: a.clockNow()}, nil
}
