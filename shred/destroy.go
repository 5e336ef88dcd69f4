package shred

import (
	"context"
	"errors"
	"fmt"
	"github.com/cmem/cmem/events"

	"github.com/nats-io/nats.go/jetstream"
)

// DestroyUser erases a user: a tombstone first (so no new key is made for
// them), then the user's key and every fragment key of the user. It is
// idempotent: destroying an erased user again finds nothing left to erase.
func (k *Keyring) DestroyUser(ctx context.Context, user string) error {
	if _, err := k.kv.Put(ctx, tombstoneID(user), []byte("erased")); err != nil {
		return fmt.Errorf("shred: tombstone %s: %w", user, err)
	}
	k.note(tombstoneID(user), nil, true)
	ids := []string{KeyID(events.DataSubject{User: user})}
	lister, err := k.kv.ListKeysFiltered(ctx, "f."+user+".*", "q."+user+".*")
	if err != nil && !errors.Is(err, jetstream.ErrNoKeysFound) {
		return fmt.Errorf("shred: list keys of %s: %w", user, err)
	}
	if lister != nil {
		for id := range lister.Keys() {
			ids = append(ids, id)
		}
		_ = lister.Stop()
	}
	for _, id := range ids {
		if err := k.destroy(ctx, id); err != nil {
			return err
		}
	}
	return nil
}

// DestroyFragment erases the content of one fragment of user.
func (k *Keyring) DestroyFragment(ctx context.Context, user, fragment string) error {
	return k.destroy(ctx, KeyID(events.DataSubject{User: user, Fragment: fragment}))
}

// DestroyQuery erases the content of one query of user: its text, steps
// and answer.
func (k *Keyring) DestroyQuery(ctx context.Context, user, query string) error {
	return k.destroy(ctx, KeyID(events.DataSubject{User: user, Query: query}))
}

// destroy securely deletes the stored message of key id (the server
// overwrites its bytes in the store files), then writes a delete marker so
// every keyring's cache drops it. A key that does not exist is not an
// error. It loops because a key made concurrently would otherwise survive.
func (k *Keyring) destroy(ctx context.Context, id string) error {
	for range 3 {
		e, err := k.kv.Get(ctx, id)
		if errors.Is(err, jetstream.ErrKeyNotFound) || errors.Is(err, jetstream.ErrKeyDeleted) {
			k.note(id, nil, false)
			return nil
		}
		if err != nil {
			return fmt.Errorf("shred: get key %s: %w", id, err)
		}
		if err := k.stream.SecureDeleteMsg(ctx, e.Revision()); err != nil && !errors.Is(err, jetstream.ErrMsgNotFound) {
			return fmt.Errorf("shred: erase key %s: %w", id, err)
		}
		if err := k.kv.Delete(ctx, id); err != nil {
			return fmt.Errorf("shred: delete marker %s: %w", id, err)
		}
		k.note(id, nil, false)
	}
	return nil
}
