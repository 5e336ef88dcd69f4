package shred_test

import (
	"errors"
	"github.com/cmem/cmem/events"
	"strings"
	"testing"

	"github.com/cmem/cmem/events/eventlog/logtest"
	"github.com/cmem/cmem/projectors/snapshot"
	"github.com/cmem/cmem/shred"
)

// The snapshot sealer seals under a known key (unreadable once it is
// destroyed, also for a keyring opened afterwards), refuses content whose
// key was destroyed or whose user was erased, never makes a key, and keeps
// content that was never sealed as it is in the log.
func TestSnapshotSealerFollowsTheKeys(t *testing.T) {
	dir := t.TempDir()
	log := logtest.Open(t, dir)
	ctx := t.Context()
	k := openKeyring(t, log)
	defer k.Close()
	f1 := events.DataSubject{User: "alice", Fragment: "f1"}
	if _, _, err := k.DataKey(ctx, f1); err != nil {
		t.Fatal(err)
	}
	s := shred.NewSnapshotSealer(k)
	sealed, err := s.Seal(ctx, f1, []byte("zqxsnapmarker"))
	if err != nil || strings.Contains(sealed, "zqxsnapmarker") || !strings.HasPrefix(sealed, "sealed:v1:f.alice.f1:") {
		t.Fatalf("sealed = %q, %v", sealed, err)
	}
	if plain, err := s.Open(ctx, sealed); err != nil || string(plain) != "zqxsnapmarker" {
		t.Fatalf("open = %q, %v", plain, err)
	}
	never := events.DataSubject{User: "bob", Fragment: "f2"}
	clear, err := s.Seal(ctx, never, []byte("written in clear"))
	if err != nil || strings.HasPrefix(clear, "sealed:") {
		t.Fatalf("content never sealed: %q, %v", clear, err)
	}
	if _, err := k.Key(ctx, shred.KeyID(never)); !errors.Is(err, shred.ErrNoKey) {
		t.Fatalf("the snapshot sealer made a key: %v", err)
	}

	if err := k.DestroyFragment(ctx, "alice", "f1"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Seal(ctx, f1, []byte("x")); !errors.Is(err, snapshot.ErrGone) {
		t.Errorf("seal after the key was destroyed: %v, want ErrGone", err)
	}
	if err := k.DestroyUser(ctx, "bob"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Seal(ctx, never, []byte("x")); !errors.Is(err, snapshot.ErrGone) {
		t.Errorf("seal for an erased user: %v, want ErrGone", err)
	}
	k2 := openKeyring(t, log)
	defer k2.Close()
	if _, err := shred.NewSnapshotSealer(k2).Open(ctx, sealed); !errors.Is(err, snapshot.ErrGone) {
		t.Errorf("open after the key was destroyed: %v, want ErrGone", err)
	}
	if _, err := shred.NewSnapshotSealer(k2).Seal(ctx, f1, []byte("x")); !errors.Is(err, snapshot.ErrGone) {
		t.Errorf("a keyring opened after the destruction seals under it: %v, want ErrGone", err)
	}
}
