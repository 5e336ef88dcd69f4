package projectors

import "context"

// Hold runs fn while no batch is being applied, with the revision every
// projection has applied: fn sees all of them at that one revision (a
// snapshot is taken so).
func (r *Runner) Hold(fn func(revision uint64) error) error {
	r.applying.Lock()
	defer r.applying.Unlock()
	return fn(r.revision.Load())
}

// AfterBatch sets fn to be called after every applied batch, with its last
// revision, while the projections are still held (a snapshot writer takes
// one there when it is due). Call it before Run.
func (r *Runner) AfterBatch(fn func(ctx context.Context, revision uint64)) { r.afterBatch = fn }
