package shred

import (
	"cmp"
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/cmem/cmem/events"
)

// Bucket is the default name of the key-value bucket that holds data keys.
const Bucket = "cmem_keys"

// keySize is the AES-256 key length.
const keySize = 32

// Sentinel errors.
var (
	// ErrErased is returned when a key is asked for a subject whose keys
	// were destroyed: nothing new may be sealed for an erased user.
	ErrErased = errors.New("shred: data subject erased")
	// ErrNoKey is returned when a key id is unknown (destroyed or never made).
	ErrNoKey = errors.New("shred: no such key")
)

// KeyID is the subject's key name in the bucket: f.<user>.<fragment>,
// q.<user>.<query> or u.<user>. Ids follow the events' id pattern
// (^[A-Za-z0-9_-]{1,128}$), so each part is a valid key-value key token.
func KeyID(s events.DataSubject) string {
	switch {
	case s.Fragment != "":
		return "f." + s.User + "." + s.Fragment
	case s.Query != "":
		return "q." + s.User + "." + s.Query
	default:
		return "u." + s.User
	}
}

func tombstoneID(user string) string { return "x." + user }

// Keyring creates, finds and destroys data keys. It keeps every key of the
// bucket in memory, fed by a watch, so that opening a rebuild's worth of
// events costs no round trip per event. It is safe for concurrent use.
type Keyring struct {
	kv     jetstream.KeyValue
	stream jetstream.Stream
	logger *slog.Logger

	mu   sync.RWMutex
	keys map[string][]byte
	gone map[string]bool // users with a tombstone
	// destroyed holds the keys seen deleted: a snapshot must tell content
	// whose key was destroyed from content that was never sealed.
	destroyed map[string]bool
	ready     chan struct{}
	stop      context.CancelFunc
}

// OpenKeyring provisions the bucket (replicas as the event stream) and
// loads its keys. Close stops the watch.
func OpenKeyring(ctx context.Context, js jetstream.JetStream, bucket string, replicas int, logger *slog.Logger) (*Keyring, error) {
	bucket = cmp.Or(bucket, Bucket)
	logger = cmp.Or(logger, slog.Default())
	kv, st, err := provision(ctx, js, bucket, replicas)
	if err != nil {
		return nil, err
	}
	wctx, cancel := context.WithCancel(context.Background())
	k := &Keyring{kv: kv, stream: st, logger: logger, keys: map[string][]byte{}, gone: map[string]bool{}, destroyed: map[string]bool{},
		ready: make(chan struct{}), stop: cancel}
	w, err := kv.WatchAll(wctx)
	if err != nil {
		cancel()
		return nil, fmt.Errorf("shred: watch keys: %w", err)
	}
	go k.watch(wctx, w)
	select {
	case <-k.ready:
		return k, nil
	case <-ctx.Done():
		cancel()
		return nil, fmt.Errorf("shred: load keys: %w", ctx.Err())
	}
}

// Close stops the watch.
func (k *Keyring) Close() { k.stop() }

func (k *Keyring) watch(ctx context.Context, w jetstream.KeyWatcher) {
	defer func() { _ = w.Stop() }()
	readied := false
	for {
		select {
		case <-ctx.Done():
			return
		case e, ok := <-w.Updates():
			if !ok {
				return
			}
			if e == nil { // the initial values are in
				if !readied {
					readied = true
					close(k.ready)
				}
				continue
			}
			k.note(e.Key(), e.Value(), e.Operation() == jetstream.KeyValuePut)
		}
	}
}

// note records one key's state as seen in the bucket.
func (k *Keyring) note(id string, value []byte, present bool) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if user, ok := strings.CutPrefix(id, "x."); ok {
		if present {
			k.gone[user] = true
		} else {
			delete(k.gone, user)
		}
		return
	}
	if present && len(value) == keySize {
		k.keys[id] = value
		delete(k.destroyed, id)
	} else {
		delete(k.keys, id)
		k.destroyed[id] = true
	}
}

// Key returns the key with id, from the cache or else from the bucket.
func (k *Keyring) Key(ctx context.Context, id string) ([]byte, error) {
	k.mu.RLock()
	key, ok := k.keys[id]
	k.mu.RUnlock()
	if ok {
		return key, nil
	}
	e, err := k.kv.Get(ctx, id)
	if errors.Is(err, jetstream.ErrKeyNotFound) || errors.Is(err, jetstream.ErrKeyDeleted) {
		return nil, fmt.Errorf("%w: %s", ErrNoKey, id)
	}
	if err != nil {
		return nil, fmt.Errorf("shred: get key %s: %w", id, err)
	}
	if len(e.Value()) != keySize {
		return nil, fmt.Errorf("%w: %s", ErrNoKey, id)
	}
	k.note(id, e.Value(), true)
	return e.Value(), nil
}

// DataKey returns the key of s, making it if it does not exist yet. It
// fails with ErrErased for a user that was erased.
func (k *Keyring) DataKey(ctx context.Context, s events.DataSubject) (string, []byte, error) {
	id := KeyID(s)
	k.mu.RLock()
	key, ok := k.keys[id]
	gone := k.gone[s.User]
	k.mu.RUnlock()
	if gone {
		return "", nil, fmt.Errorf("%w: %s", ErrErased, s.User)
	}
	if ok {
		return id, key, nil
	}
	key = make([]byte, keySize)
	if _, err := rand.Read(key); err != nil {
		return "", nil, fmt.Errorf("shred: new key: %w", err)
	}
	if _, err := k.kv.Create(ctx, id, key); err != nil {
		if !errors.Is(err, jetstream.ErrKeyExists) {
			return "", nil, fmt.Errorf("shred: store key %s: %w", id, err)
		}
		// Made before (by another process, or before this cache loaded).
		key, err = k.Key(ctx, id)
		if err != nil {
			return "", nil, err
		}
	}
	// The tombstone is checked after the key exists: DestroyUser writes the
	// tombstone before it lists the user's keys, so a key made concurrently
	// is either listed (and destroyed) by it or sees the tombstone here.
	if _, err := k.kv.Get(ctx, tombstoneID(s.User)); err == nil {
		k.note(tombstoneID(s.User), nil, true)
		if derr := k.destroy(ctx, id); derr != nil {
			return "", nil, derr
		}
		return "", nil, fmt.Errorf("%w: %s", ErrErased, s.User)
	} else if !errors.Is(err, jetstream.ErrKeyNotFound) && !errors.Is(err, jetstream.ErrKeyDeleted) {
		return "", nil, fmt.Errorf("shred: tombstone of %s: %w", s.User, err)
	}
	k.note(id, key, true)
	return id, key, nil
}

// provision creates the bucket's stream itself, laid out as a key-value
// bucket of history 1, because a bucket made by CreateKeyValue denies
// message deletes for good and a destroyed key must be securely deleted.
// Direct gets stay off: a lagging replica must never make a key look
// destroyed.
func provision(ctx context.Context, js jetstream.JetStream, bucket string, replicas int) (jetstream.KeyValue, jetstream.Stream, error) {
	st, err := js.CreateOrUpdateStream(ctx, jetstream.StreamConfig{
		Name:              "KV_" + bucket,
		Description:       "cmem data keys: destroying one erases the content sealed under it",
		Subjects:          []string{"$KV." + bucket + ".>"},
		MaxMsgsPerSubject: 1,
		Storage:           jetstream.FileStorage,
		Replicas:          max(replicas, 1),
		Discard:           jetstream.DiscardNew,
		AllowRollup:       true,
		DenyDelete:        false,
		AllowDirect:       false,
		Duplicates:        2 * time.Minute,
	})
	if err != nil {
		return nil, nil, fmt.Errorf("shred: provision bucket %s: %w", bucket, err)
	}
	kv, err := js.KeyValue(ctx, bucket)
	if err != nil {
		return nil, nil, fmt.Errorf("shred: bind bucket %s: %w", bucket, err)
	}
	return kv, st, nil
}
