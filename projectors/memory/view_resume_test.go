package memory_test

import (
	"context"
	"testing"

	"github.com/cmem/cmem/embedding/hashing"
	"github.com/cmem/cmem/projectors/memory"
	"github.com/cmem/cmem/vectors"
	"github.com/cmem/cmem/vectors/inmem"
)

// sharedView is a store other processes feed too: every read of its
// checkpoint finds it moved on (they applied more of the log), and the log
// head with it. Resets are counted.
type sharedView struct {
	*inmem.Store
	checkpoint, head uint64
	model            string
	resets           int
}

func (s *sharedView) Checkpoint(context.Context) (uint64, string, error) {
	s.checkpoint += 10
	s.head = s.checkpoint
	return s.checkpoint, s.model, nil
}

func (s *sharedView) SetCheckpoint(_ context.Context, rev uint64, model string) error {
	s.checkpoint, s.model = rev, model
	return nil
}

func (s *sharedView) Reset(ctx context.Context) error {
	s.resets++
	return s.Store.Reset(ctx)
}

// A process joining a view that others keep feeding resumes after its
// checkpoint; it must not take the checkpoint for one ahead of the log
// (and reset everyone's view) because the head it compared with was read
// before the checkpoint moved.
func TestResumeOfASharedViewReadsTheHeadAfterTheCheckpoint(t *testing.T) {
	e := hashing.New(8)
	in, err := inmem.New(8)
	if err != nil {
		t.Fatal(err)
	}
	s := &sharedView{Store: in, checkpoint: 100, head: 105, model: vectors.ContentModel(e.Model())}
	v := memory.NewViewProjection("view", s, e)
	from, err := v.Resume(context.Background(), func(context.Context) (uint64, error) { return s.head, nil })
	if err != nil {
		t.Fatal(err)
	}
	if s.resets != 0 || from != 110 {
		t.Fatalf("resumed after %d with %d resets; want after 110 (the checkpoint read) and no reset", from, s.resets)
	}
	// A checkpoint past the log's head (the log was replaced) still resets.
	from, err = v.Resume(context.Background(), func(context.Context) (uint64, error) { return 1, nil })
	if err != nil || from != 0 || s.resets != 1 {
		t.Fatalf("a checkpoint ahead of the log: resumed after %d, %d resets, %v; want 0 and one reset", from, s.resets, err)
	}
}

var _ vectors.Checkpointer = (*sharedView)(nil)

// A view built when fragments carried their key's vector alone (its
// checkpoint names the embedder only) is rebuilt: its vectors are not
// comparable with those of key and value.
func TestResumeRebuildsAViewOfKeyVectors(t *testing.T) {
	e := hashing.New(8)
	in, err := inmem.New(8)
	if err != nil {
		t.Fatal(err)
	}
	s := &sharedView{Store: in, checkpoint: 100, head: 105, model: e.Model()}
	v := memory.NewViewProjection("view", s, e)
	from, err := v.Resume(context.Background(), func(context.Context) (uint64, error) { return s.head, nil })
	if err != nil || from != 0 || s.resets != 1 {
		t.Fatalf("resumed after %d with %d resets (%v); want a rebuild from 0", from, s.resets, err)
	}
}
