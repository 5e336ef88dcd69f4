package snapshottest

import (
	"bytes"
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/cmem/cmem/projectors/snapshot"
)

// Store is a snapshot.Store under test. It also lists what it holds, so
// that the suite sees which snapshots Prune kept and not only the newest;
// a store without such a method in its API gives it one in an
// export_test.go.
type Store interface {
	snapshot.Store
	// Revisions lists the revisions of the snapshots Newest could return,
	// ascending.
	Revisions(ctx context.Context) ([]uint64, error)
}

// NewStore returns an empty Store the test owns; it registers its own
// cleanup.
type NewStore func(t *testing.T) Store

// Run runs the contract suite against the store newStore builds. Every
// subtest gets a fresh store.
func Run(t *testing.T, newStore NewStore) {
	tests := []struct {
		name string
		fn   func(*testing.T, Store)
	}{
		{"EmptyHasNone", testEmpty},
		{"NewestIsTheHighestRevision", testNewest},
		{"BlobsComeBackByteForByte", testRoundTrip},
		{"PutAgainReplaces", testReplace},
		{"PruneKeepsTheNewest", testPrune},
		{"ContentIsOpaque", testOpaque},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { tc.fn(t, newStore(t)) })
	}
}

func put(t *testing.T, s Store, revision uint64, blob []byte) {
	t.Helper()
	if err := s.Put(t.Context(), revision, blob); err != nil {
		t.Fatalf("Put(%d, %d bytes): %v", revision, len(blob), err)
	}
}

func prune(t *testing.T, s Store, keep int) {
	t.Helper()
	if err := s.Prune(t.Context(), keep); err != nil {
		t.Fatalf("Prune(%d): %v", keep, err)
	}
}

// wantNewest fails unless Newest returns blob at revision.
func wantNewest(t *testing.T, s Store, revision uint64, blob []byte) {
	t.Helper()
	rev, got, err := s.Newest(t.Context())
	if err != nil || rev != revision || !bytes.Equal(got, blob) {
		t.Fatalf("Newest = %d, %d bytes (equal %v), %v; want %d, %d bytes",
			rev, len(got), bytes.Equal(got, blob), err, revision, len(blob))
	}
}

func wantNone(t *testing.T, s Store) {
	t.Helper()
	if rev, blob, err := s.Newest(t.Context()); !errors.Is(err, snapshot.ErrNone) {
		t.Fatalf("Newest = %d, %d bytes, %v; want ErrNone", rev, len(blob), err)
	}
}

func wantRevisions(t *testing.T, s Store, want ...uint64) {
	t.Helper()
	got, err := s.Revisions(t.Context())
	if err != nil || !slices.Equal(got, want) {
		t.Fatalf("the store holds %v (%v), want %v", got, err, want)
	}
}

// testEmpty: an empty store has no newest snapshot, which Restore takes to
// mean "rebuild from the log", and pruning it is not an error.
func testEmpty(t *testing.T, s Store) {
	wantNone(t, s)
	prune(t, s, snapshot.DefaultKeep)
	prune(t, s, 0)
	wantNone(t, s)
	wantRevisions(t, s)
}

// testNewest: Newest is the highest revision, whatever order the
// snapshots were put in.
func testNewest(t *testing.T, s Store) {
	put(t, s, 20, []byte("twenty"))
	put(t, s, 10, []byte("ten")) // an older one, stored later
	wantNewest(t, s, 20, []byte("twenty"))
	put(t, s, 30, []byte("thirty"))
	wantNewest(t, s, 30, []byte("thirty"))
	wantRevisions(t, s, 10, 20, 30)
}

// testRoundTrip: any blob, empty, binary or large, comes back byte for
// byte, and neither the caller's slice nor the one Newest returned is the
// stored snapshot.
func testRoundTrip(t *testing.T, s Store) {
	every := make([]byte, 256)
	for i := range every {
		every[i] = byte(i)
	}
	r := rand.New(rand.NewPCG(7, 8))
	large := make([]byte, 3<<20+5)
	for i := range large {
		large[i] = byte(r.Uint32())
	}
	for i, blob := range [][]byte{nil, {}, {0}, every, large} {
		rev := uint64(i + 1)
		put(t, s, rev, blob)
		wantNewest(t, s, rev, blob)
	}
	blob := []byte("mine")
	put(t, s, 100, blob)
	blob[0] = 'y'
	wantNewest(t, s, 100, []byte("mine"))
	_, got, err := s.Newest(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	got[0] = 'y'
	wantNewest(t, s, 100, []byte("mine"))
}

// testReplace: a snapshot put again at its revision replaces the first,
// longer or shorter.
func testReplace(t *testing.T, s Store) {
	put(t, s, 5, bytes.Repeat([]byte("first "), 1000))
	put(t, s, 5, []byte("second"))
	wantNewest(t, s, 5, []byte("second"))
	put(t, s, 5, bytes.Repeat([]byte("third "), 2000))
	wantNewest(t, s, 5, bytes.Repeat([]byte("third "), 2000))
	wantRevisions(t, s, 5)
}

// testPrune: Prune(keep) deletes all but the keep newest, a keep above
// what is held deletes nothing, and Prune(0) deletes every one, after
// which there is none.
func testPrune(t *testing.T, s Store) {
	for _, rev := range []uint64{30, 10, 50, 20, 40} {
		put(t, s, rev, []byte{byte(rev)})
	}
	prune(t, s, 3)
	wantRevisions(t, s, 30, 40, 50)
	wantNewest(t, s, 50, []byte{50})
	prune(t, s, 5)
	wantRevisions(t, s, 30, 40, 50)
	prune(t, s, 1)
	wantRevisions(t, s, 50)
	put(t, s, 60, []byte{60})
	prune(t, s, snapshot.DefaultKeep)
	wantRevisions(t, s, 50, 60)
	wantNewest(t, s, 60, []byte{60})
	prune(t, s, 0)
	wantRevisions(t, s)
	wantNone(t, s)
	put(t, s, 70, []byte{70}) // a pruned store takes snapshots again
	wantNewest(t, s, 70, []byte{70})
}

// testOpaque: a store keeps blobs, it does not read them: one that is no
// snapshot comes back as it went in, and it is Decode (in Restore) that
// refuses it.
func testOpaque(t *testing.T, s Store) {
	junk := []byte("not a snapshot at all")
	put(t, s, 9, junk)
	wantNewest(t, s, 9, junk)
	_, blob, err := s.Newest(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := snapshot.Decode(blob); !errors.Is(err, snapshot.ErrCorrupt) {
		t.Fatalf("Decode of what the store returned: %v, want ErrCorrupt", err)
	}
}
