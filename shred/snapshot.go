package shred

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/projectors/snapshot"
)

// SnapshotSealer seals the content a projection snapshot holds under the
// data key of its subject, in the same sealed form as the log's fields.
// It never makes a key, and decides from the keyring's own view of the
// bucket (every key it opened content with is in it, every destroyed key
// is marked in it):
//   - the subject's key is known: the content is sealed under it, so
//     destroying the key later makes this copy unreadable too;
//   - the key was destroyed, or the user erased: snapshot.ErrGone, the
//     content is left out, so a snapshot taken after an erasure cannot
//     bring it back under a new key;
//   - no key was ever made: the content was written in clear (with
//     sealing off, or by another writer) and is in clear in the log; it
//     is kept encoded but not sealed (snapshot.Clear), no worse than the
//     log.
type SnapshotSealer struct {
	keys *Keyring
}

var _ snapshot.Sealer = SnapshotSealer{}

// NewSnapshotSealer returns a sealer over keys.
func NewSnapshotSealer(keys *Keyring) SnapshotSealer { return SnapshotSealer{keys: keys} }

// Seal implements snapshot.Sealer.
func (s SnapshotSealer) Seal(ctx context.Context, sub events.DataSubject, plain []byte) (string, error) {
	id := KeyID(sub)
	k := s.keys
	k.mu.RLock()
	key, ok := k.keys[id]
	gone := k.gone[sub.User] || k.destroyed[id]
	k.mu.RUnlock()
	switch {
	case gone:
		return "", fmt.Errorf("%w: key %s", snapshot.ErrGone, id)
	case !ok:
		return snapshot.Clear{}.Seal(ctx, sub, plain)
	}
	aead, err := newAEAD(key)
	if err != nil {
		return "", err
	}
	return seal(aead, id, plain), nil
}

// Open implements snapshot.Sealer.
func (s SnapshotSealer) Open(ctx context.Context, sealed string) ([]byte, error) {
	if !strings.HasPrefix(sealed, prefix) {
		return snapshot.Clear{}.Open(ctx, sealed)
	}
	plain, err := (&Sealer{keys: s.keys}).open(ctx, sealed)
	if errors.Is(err, ErrNoKey) {
		return nil, fmt.Errorf("%w: %w", snapshot.ErrGone, err)
	}
	return plain, err
}
