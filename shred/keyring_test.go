package shred_test

import (
	"bytes"
	"errors"
	"github.com/cmem/cmem/events"
	"os"
	"path/filepath"
	"testing"

	"github.com/cmem/cmem/events/eventlog"
	"github.com/cmem/cmem/events/eventlog/logtest"
	"github.com/cmem/cmem/shred"
)

// openKeyring opens a keyring on log's JetStream as the node does; the
// caller closes it.
func openKeyring(t *testing.T, log *eventlog.Log) *shred.Keyring {
	t.Helper()
	k, err := shred.OpenKeyring(t.Context(), log.JetStream(), "", 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func inFiles(t *testing.T, dir string, needle []byte) bool {
	t.Helper()
	found := false
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		raw, err := os.ReadFile(path)
		found = found || bytes.Contains(raw, needle)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return found
}

// The keyring on the embedded JetStream: keys are made once and found by a
// second keyring; destroying a user erases the bytes of its keys from the
// store files, and the user can never be given a key again.
func TestKeyringDestroysKeysForGood(t *testing.T) {
	dir := t.TempDir()
	log := logtest.Open(t, dir)
	ctx := t.Context()
	k := openKeyring(t, log)
	defer k.Close()
	_, user, err := k.DataKey(ctx, events.DataSubject{User: "alice"})
	if err != nil {
		t.Fatal(err)
	}
	fid, frag, err := k.DataKey(ctx, events.DataSubject{User: "alice", Fragment: "f1"})
	if err != nil {
		t.Fatal(err)
	}
	_, bobs, err := k.DataKey(ctx, events.DataSubject{User: "bob"})
	if err != nil {
		t.Fatal(err)
	}
	if _, again, _ := k.DataKey(ctx, events.DataSubject{User: "alice"}); !bytes.Equal(again, user) {
		t.Fatal("DataKey made a second key for the same subject")
	}
	k2 := openKeyring(t, log)
	defer k2.Close()
	if got, err := k2.Key(ctx, fid); err != nil || !bytes.Equal(got, frag) {
		t.Fatalf("a second keyring does not see the key: %v", err)
	}
	for _, key := range [][]byte{user, frag} {
		if !inFiles(t, dir, key) {
			t.Fatal("key bytes not found in the store files: the search cannot be trusted")
		}
	}

	if err := k.DestroyUser(ctx, "alice"); err != nil {
		t.Fatal(err)
	}
	for i, key := range [][]byte{user, frag} {
		if inFiles(t, dir, key) {
			t.Errorf("key %d still in the store files after DestroyUser", i)
		}
	}
	if !inFiles(t, dir, bobs) {
		t.Error("another user's key went with alice's")
	}
	if _, err := k.Key(ctx, fid); !errors.Is(err, shred.ErrNoKey) {
		t.Errorf("Key after destroy: %v, want ErrNoKey", err)
	}
	for _, kr := range []*shred.Keyring{k, k2} {
		if _, _, err := kr.DataKey(ctx, events.DataSubject{User: "alice", Query: "q9"}); !errors.Is(err, shred.ErrErased) {
			t.Errorf("DataKey for an erased user: %v, want ErrErased", err)
		}
	}
	if err := k.DestroyUser(ctx, "alice"); err != nil {
		t.Errorf("DestroyUser is not idempotent: %v", err)
	}
}
