package shred

import (
	"context"
	"errors"
	"fmt"

	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/snapshot"
)

// SnapshotSealer seals the content a projection snapshot holds under the
// data key of its subject, in the same sealed form as the log's fields. It
// never makes a key: content whose key was destroyed (or never made) is
// refused with snapshot.ErrGone, so a snapshot taken after an erasure
// cannot bring the content back under a new key.
type SnapshotSealer struct {
	keys Keys
}

var _ snapshot.Sealer = SnapshotSealer{}

// NewSnapshotSealer returns a sealer over keys.
func NewSnapshotSealer(keys Keys) SnapshotSealer { return SnapshotSealer{keys: keys} }

// Seal implements snapshot.Sealer.
func (s SnapshotSealer) Seal(ctx context.Context, sub events.DataSubject, plain []byte) (string, error) {
	id := KeyID(sub)
	key, err := s.keys.Key(ctx, id)
	if errors.Is(err, ErrNoKey) {
		return "", fmt.Errorf("%w: %w", snapshot.ErrGone, err)
	}
	if err != nil {
		return "", err
	}
	aead, err := newAEAD(key)
	if err != nil {
		return "", err
	}
	return seal(aead, id, plain), nil
}

// Open implements snapshot.Sealer.
func (s SnapshotSealer) Open(ctx context.Context, sealed string) ([]byte, error) {
	plain, err := (&Sealer{keys: s.keys}).open(ctx, sealed)
	if errors.Is(err, ErrNoKey) {
		return nil, fmt.Errorf("%w: %w", snapshot.ErrGone, err)
	}
	return plain, err
}
