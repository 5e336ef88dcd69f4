package node

import (
	"context"
	"errors"
	"runtime/debug"

	"github.com/cmem/cmem/projectors"
	"github.com/cmem/cmem/projectors/snapshot"
	"github.com/cmem/cmem/projectors/snapshot/natsobj"
	"github.com/cmem/cmem/shred"
)

// startFromSnapshot restores the core projections from the newest snapshot
// (the runner then resumes after its revision) and sets up the writer that
// takes the next ones. Snapshots are only an optimisation: anything wrong
// with them is logged and the projections are rebuilt from the log.
func (n *Node) startFromSnapshot(ctx context.Context, core []projectors.Projection) error {
	cfg := n.cfg.Snapshots
	if cfg.Off {
		return nil
	}
	sections := make([]snapshot.Section, 0, len(core))
	for _, p := range core {
		s, ok := p.(snapshot.Section)
		if !ok {
			n.logger.Warn("projection snapshots off: a projection cannot be snapshotted", "projection", p.Name())
			return nil
		}
		sections = append(sections, s)
	}
	store, err := natsobj.Open(ctx, n.Log.JetStream(), natsobj.Bucket, n.cfg.Replicas)
	if err != nil { // e.g. an account without object stores: start as before
		n.logger.Warn("projection snapshots off: no snapshot store", "err", err)
		return nil
	}
	var sealer snapshot.Sealer = snapshot.Clear{}
	if n.Keys != nil {
		sealer = shred.NewSnapshotSealer(n.Keys)
	}
	head, err := n.Log.Head(ctx, "")
	if err != nil {
		return err
	}
	if n.RestoredFrom = snapshot.Restore(ctx, store, sealer, head, n.logger, sections...); n.RestoredFrom > 0 {
		n.Runner.StartAfter(n.RestoredFrom)
		// Decoding left the blob and its copies as garbage several times
		// the projections' size: hand it back now rather than at the
		// collector's leisure, or the process starts with that resident.
		debug.FreeOSMemory()
	}
	if cfg.Every == 0 && n.cfg.Role == RoleGateway {
		return nil // gateways read snapshots; workers write them
	}
	if cfg.Every < 0 {
		return nil
	}
	n.Snapshots = snapshot.NewWriter(cfg, store, sealer, n.cfg.Source, n.logger, sections...)
	n.Snapshots.From(n.RestoredFrom)
	n.Runner.AfterBatch(n.Snapshots.AfterBatch)
	return nil
}

// ErrNoSnapshots is returned by TakeSnapshot on a process that takes none.
var ErrNoSnapshots = errors.New("node: this process takes no snapshots")

// TakeSnapshot checkpoints the projections now and returns the revision
// of the snapshot once it is stored.
func (n *Node) TakeSnapshot(ctx context.Context) (uint64, error) {
	if n.Snapshots == nil {
		return 0, ErrNoSnapshots
	}
	return n.Snapshots.Take(ctx, n.Runner)
}
