package rerank_test

import (
	"context"
	"strings"
	"testing"

	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/projectors/rerank"
	"github.com/cmem/cmem/projectors/snapshot"
)

// keys is a snapshot.Sealer whose fragment keys can be destroyed, as the
// shred keyring's are by an erasure.
type keys struct{ destroyed map[string]bool }

func (k keys) Seal(ctx context.Context, s events.DataSubject, plain []byte) (string, error) {
	if k.destroyed[s.Fragment] {
		return "", snapshot.ErrGone
	}
	c, err := snapshot.Clear{}.Seal(ctx, s, plain)
	return s.Fragment + "|" + c, err
}

func (k keys) Open(ctx context.Context, sealed string) ([]byte, error) {
	id, c, _ := strings.Cut(sealed, "|")
	if k.destroyed[id] {
		return nil, snapshot.ErrGone
	}
	return snapshot.Clear{}.Open(ctx, c)
}

// restore snapshots from with s and restores it into a new model.
func restore(t *testing.T, from *rerank.Model, s snapshot.Sealer, revision uint64) *rerank.Model {
	t.Helper()
	data, err := from.MarshalSnapshot(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	to := model(t)
	install, err := to.RestoreSnapshot(context.Background(), s, revision, data)
	if err != nil {
		t.Fatal(err)
	}
	install()
	revs[to] = revision
	return to
}

// A model restored from a snapshot and fed the tail is the model that
// followed the whole log; the snapshot holds content only under the
// fragments' keys.
func TestSnapshotPlusTailIsTheLiveModel(t *testing.T) {
	h := history(false)
	live := model(t)
	cut := 7 // after m2: three lessons to come or learned, a deletion and an erasure in the tail
	feed(t, live, h[:cut]...)
	k := keys{destroyed: map[string]bool{}}
	data, err := live.MarshalSnapshot(context.Background(), k)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(data), "quenelles") || strings.Contains(string(data), "bouchons") {
		t.Fatal("the snapshot holds fragment text outside its sealed form")
	}
	restored := restore(t, live, k, uint64(cut))
	if restored.Digest() != live.Digest() || restored.Lessons() != live.Lessons() {
		t.Fatal("the restored model is not the one snapshotted")
	}
	feed(t, live, h[cut:]...)
	feed(t, restored, h[cut:]...)
	if restored.Digest() != live.Digest() {
		t.Fatal("snapshot + tail differs from the live model")
	}
}

// A fragment erased after the snapshot was taken (its key destroyed) is
// erased at restore as its erasure event would erase it: what the lessons
// taught is relearned without it, so nothing it said shapes a ranking, and
// the tail leaves the model equal to the live one.
func TestSnapshotBeforeAnErasureForgetsTheErased(t *testing.T) {
	h := history(false)
	live := model(t)
	cut := len(h) - 1 // before v's erasure of "relevant"
	feed(t, live, h[:cut]...)
	k := keys{destroyed: map[string]bool{}}
	data, err := live.MarshalSnapshot(context.Background(), k)
	if err != nil {
		t.Fatal(err)
	}
	if !holds(live.Taught("m1"), "relevant") {
		t.Fatalf("before the erasure m1 must have labelled the relevant fragment: %v", live.Taught("m1"))
	}
	k.destroyed["relevant"] = true // the erasure destroys the key, then its event is appended
	restored := model(t)
	install, err := restored.RestoreSnapshot(context.Background(), k, uint64(cut), data)
	if err != nil {
		t.Fatal(err)
	}
	install()
	revs[restored] = uint64(cut)
	for _, id := range []string{"m1", "m2", "m3"} {
		if holds(restored.Taught(id), "relevant") {
			t.Fatalf("lesson %s still holds the erased fragment after restore: %v", id, restored.Taught(id))
		}
	}
	feed(t, live, h[cut:]...)
	feed(t, restored, h[cut:]...)
	if restored.Digest() != live.Digest() {
		t.Fatal("after the erasure the restored model differs from the live one")
	}
}
