package memory

import (
	"context"
	"fmt"
	"slices"

	"github.com/cmem/cmem/embedding"
	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/vectors"
)

// ViewProjection feeds a vector store from FragmentWritten events. Events
// are buffered by Apply and written in one batch by Flush, which the runner
// calls before it reports the batch's revisions as applied; a store that is
// down makes Flush fail and the runner retry the batch, never skip it.
//
// The view's vectors embed a fragment's key and value (vectors.EmbedText,
// named vectors.ContentModel): the value is what a question is answered
// from. A FragmentWritten event carries the vector of the key alone, which
// the learned re-ranker compares queries with (projectors/rerank), so the
// view embeds the text itself at Flush, in one batch; an event that ever
// carries a vector of the view's model is used as it is. A change of
// embedder is applied the same way, by replaying the log into a fresh view.
type ViewProjection struct {
	name     string
	store    vectors.Store
	embedder embedding.Embedder
	pending  []vectors.Fragment
	deletes  []string // ids erased by this batch, deleted after pending is written
	last     uint64   // revision of the last buffered change
}

// NewViewProjection returns a projection named name (stable: it names the
// dead-letter subject) into store, embedding with embedder.
func NewViewProjection(name string, store vectors.Store, embedder embedding.Embedder) *ViewProjection {
	return &ViewProjection{name: name, store: store, embedder: embedder}
}

// model names the view's vectors: the embedder's vectors of a fragment's
// key and value (vectors.ContentModel).
func (v *ViewProjection) model() string { return vectors.ContentModel(v.embedder.Model()) }

// Name implements projectors.Projection.
func (v *ViewProjection) Name() string { return v.name }

// Apply implements projectors.Projection.
func (v *ViewProjection) Apply(r events.Record) error {
	if r.Type == events.TypeUserErased || r.Type == events.TypeFragmentDeleted {
		return v.erase(r)
	}
	if r.Type != events.TypeFragmentWritten {
		return nil
	}
	p, err := r.Decode()
	if err != nil {
		return err
	}
	f := p.(*events.FragmentWritten)
	if f.Key == events.Erased {
		return nil // its key is destroyed: a rebuild never indexes erased content
	}
	v.last = r.Revision
	vf := vectors.Fragment{
		ID: f.ID, Key: f.Key, Value: f.Value, Tier: f.Tier, User: f.User,
		Agents: f.Agents, Resources: f.Resources, CreatedAt: r.Time, Revision: r.Revision,
		Model: v.model(),
	}
	if f.Embedding != nil && f.Embedding.Model == v.model() {
		if vf.Vector, err = f.Embedding.DecodeVector(); err != nil {
			return err
		}
	}
	v.pending = append(v.pending, vf)
	return nil
}

// Flush implements projectors.Flusher: it embeds what needs it and writes
// the batch.
func (v *ViewProjection) Flush(ctx context.Context) error {
	if len(v.pending) == 0 && len(v.deletes) == 0 {
		return nil
	}
	var texts []string
	var idx []int
	for i, f := range v.pending {
		if f.Vector == nil {
			texts, idx = append(texts, vectors.EmbedText(f.Key, f.Value)), append(idx, i)
		}
	}
	if len(texts) > 0 {
		vecs, err := v.embedder.Embed(ctx, texts)
		if err != nil {
			return fmt.Errorf("memory: re-embed %d fragments: %w", len(texts), err)
		}
		for j, i := range idx {
			v.pending[i].Vector = vecs[j]
		}
	}
	if len(v.pending) > 0 {
		if err := v.store.Upsert(ctx, v.pending); err != nil {
			return fmt.Errorf("memory: upsert %d fragments: %w", len(v.pending), err)
		}
	}
	if len(v.deletes) > 0 {
		if err := v.store.Delete(ctx, v.deletes); err != nil {
			return fmt.Errorf("memory: delete %d erased fragments: %w", len(v.deletes), err)
		}
	}
	if cp, ok := v.store.(vectors.Checkpointer); ok {
		if err := cp.SetCheckpoint(ctx, v.last, v.model()); err != nil {
			return fmt.Errorf("memory: checkpoint: %w", err)
		}
	}
	v.Discard()
	return nil
}

// erase buffers the deletion of the fragments an erasure event lists; a
// fragment written earlier in the same batch is dropped from it.
func (v *ViewProjection) erase(r events.Record) error {
	ids, err := ErasedFragments(r)
	if err != nil {
		return err
	}
	v.pending = slices.DeleteFunc(v.pending, func(f vectors.Fragment) bool { return slices.Contains(ids, f.ID) })
	v.deletes = append(v.deletes, ids...)
	v.last = r.Revision
	return nil
}

// Resume prepares a store that outlives the process: it returns the
// revision the view is complete up to, or resets the store and returns 0
// when it holds vectors of another embedder, claims more than the log
// holds (the log was replaced), or records nothing. head reads the log's
// head; it is called after the checkpoint is read, because other
// processes feeding the same store keep moving the checkpoint: a head read
// before it could be passed by then, and a live shared view be taken for
// one ahead of its log and reset.
func (v *ViewProjection) Resume(ctx context.Context, head func(context.Context) (uint64, error)) (uint64, error) {
	cp, ok := v.store.(vectors.Checkpointer)
	if !ok {
		return 0, nil
	}
	rev, model, err := cp.Checkpoint(ctx)
	if err != nil {
		return 0, err
	}
	last, err := head(ctx)
	if err != nil {
		return 0, err
	}
	if rev > 0 && rev <= last && model == v.model() {
		return rev, nil
	}
	if err := v.store.Reset(ctx); err != nil {
		return 0, fmt.Errorf("memory: reset the view for embedder %s: %w", v.model(), err)
	}
	return 0, nil
}

// Discard drops the buffered batch; the runner calls it before it replays
// the batch after a failed Flush.
func (v *ViewProjection) Discard() { v.pending, v.deletes = v.pending[:0], v.deletes[:0] }
