package natsobj_test

import (
	"bytes"
	"context"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/cmem/cmem/events/eventlog/logtest"
	"github.com/cmem/cmem/projectors/snapshot"
	"github.com/cmem/cmem/projectors/snapshot/natsobj"
	"github.com/cmem/cmem/projectors/snapshot/snapshottest"
)

func open(t *testing.T) (*natsobj.Store, jetstream.ObjectStore) {
	t.Helper()
	l := logtest.Open(t, "")
	ctx := context.Background()
	st, err := natsobj.Open(ctx, l.JetStream(), "", 1)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := l.JetStream().ObjectStore(ctx, natsobj.Bucket)
	if err != nil {
		t.Fatal(err)
	}
	return st, raw
}

// TestContract holds the store to the contract of every snapshot.Store,
// on an embedded server per subtest.
func TestContract(t *testing.T) {
	snapshottest.Run(t, func(t *testing.T) snapshottest.Store {
		st, _ := open(t)
		return st
	})
}

// A snapshot larger than a part comes back byte for byte; the newest wins;
// Prune keeps the newest and leaves no part behind, not even of an upload
// that never got its manifest.
func TestPartsRoundTripAndPrune(t *testing.T) {
	st, raw := open(t)
	ctx := context.Background()
	if _, _, err := st.Newest(ctx); !errors.Is(err, snapshot.ErrNone) {
		t.Fatalf("empty store: %v, want ErrNone", err)
	}
	r := rand.New(rand.NewPCG(1, 2))
	blobs := map[uint64][]byte{}
	for _, rev := range []uint64{10, 20, 30} {
		b := make([]byte, natsobj.PartSize*2+int(rev)) // three parts, the last short
		for i := range b {
			b[i] = byte(r.Uint32())
		}
		blobs[rev] = b
		if err := st.Put(ctx, rev, b); err != nil {
			t.Fatal(err)
		}
	}
	if err := st.Put(ctx, 40, nil); err != nil { // an empty snapshot is one empty part
		t.Fatal(err)
	}
	if rev, b, err := st.Newest(ctx); err != nil || rev != 40 || len(b) != 0 {
		t.Fatalf("Newest = %d, %d bytes, %v; want 40, empty", rev, len(b), err)
	}
	// An upload that died before its manifest: parts only, never listed.
	if _, err := raw.PutBytes(ctx, natsobj.Name(50)+".part-000000", []byte("half")); err != nil {
		t.Fatal(err)
	}
	if err := st.Prune(ctx, 2); err != nil {
		t.Fatal(err)
	}
	rev, b, err := st.Newest(ctx)
	if err != nil || rev != 40 {
		t.Fatalf("after prune Newest = %d, %v", rev, err)
	}
	_ = b
	if err := st.Prune(ctx, 1); err != nil { // leaves 40 alone
		t.Fatal(err)
	}
	infos, err := raw.List(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, in := range infos {
		if !in.Deleted {
			names = append(names, in.Name)
		}
	}
	if len(names) != 2 || !strings.HasPrefix(names[0], natsobj.Name(40)) || !strings.HasPrefix(names[1], natsobj.Name(40)) {
		t.Fatalf("after Prune(1) the store holds %v, want snapshot 40's manifest and part", names)
	}
	// Round trip of a multi-part snapshot, on its own.
	if err := st.Put(ctx, 60, blobs[30]); err != nil {
		t.Fatal(err)
	}
	if rev, b, err := st.Newest(ctx); err != nil || rev != 60 || !bytes.Equal(b, blobs[30]) {
		t.Fatalf("Newest = %d, %d bytes (equal %v), %v; want 60 and the blob", rev, len(b), bytes.Equal(b, blobs[30]), err)
	}
}

// A manifest that is not one, or whose parts do not add up, is corrupt:
// the process rebuilds from the log instead.
func TestBrokenManifestIsCorrupt(t *testing.T) {
	st, raw := open(t)
	ctx := context.Background()
	if _, err := raw.PutBytes(ctx, natsobj.Name(7), []byte("CMEMSNAP not a manifest")); err != nil {
		t.Fatal(err)
	}
	if _, _, err := st.Newest(ctx); !errors.Is(err, snapshot.ErrCorrupt) {
		t.Fatalf("garbage manifest: %v, want ErrCorrupt", err)
	}
	if err := st.Put(ctx, 8, []byte("0123456789")); err != nil {
		t.Fatal(err)
	}
	if _, err := raw.PutBytes(ctx, natsobj.Name(8)+".part-000000", []byte("012")); err != nil { // a part went short
		t.Fatal(err)
	}
	if _, _, err := st.Newest(ctx); !errors.Is(err, snapshot.ErrCorrupt) {
		t.Fatalf("short part: %v, want ErrCorrupt", err)
	}
}
