// Package natsobj keeps projection snapshots in a JetStream object store:
// one object per snapshot, named by its revision, replicated like the
// event stream.
package natsobj

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/cmem/cmem/snapshot"
)

// Bucket is the default object store bucket.
const Bucket = "cmem_snapshots"

const prefix = "projections-"

// transferTimeout bounds one snapshot's upload or download.
const transferTimeout = 10 * time.Minute

// Store is a snapshot.Store over a JetStream object store.
type Store struct {
	os jetstream.ObjectStore
}

var _ snapshot.Store = (*Store)(nil)

// Open provisions the bucket (replicas as the event stream) and returns
// the store.
func Open(ctx context.Context, js jetstream.JetStream, bucket string, replicas int) (*Store, error) {
	if bucket == "" {
		bucket = Bucket
	}
	os, err := js.CreateOrUpdateObjectStore(ctx, jetstream.ObjectStoreConfig{
		Bucket:      bucket,
		Description: "cmem projection snapshots: content only sealed under its data keys",
		Storage:     jetstream.FileStorage,
		Replicas:    max(replicas, 1),
	})
	if err != nil {
		return nil, fmt.Errorf("natsobj: provision bucket %s: %w", bucket, err)
	}
	return &Store{os: os}, nil
}

// Name is the object name of the snapshot at revision: zero-padded, so
// that names sort as revisions.
func Name(revision uint64) string { return fmt.Sprintf("%s%020d", prefix, revision) }

// Put implements snapshot.Store.
func (s *Store) Put(ctx context.Context, revision uint64, blob []byte) error {
	ctx, cancel := context.WithTimeout(ctx, transferTimeout)
	defer cancel()
	if _, err := s.os.PutBytes(ctx, Name(revision), blob); err != nil {
		return fmt.Errorf("natsobj: put snapshot %d: %w", revision, err)
	}
	return nil
}

// Newest implements snapshot.Store.
func (s *Store) Newest(ctx context.Context) (uint64, []byte, error) {
	revs, err := s.revisions(ctx)
	if err != nil {
		return 0, nil, err
	}
	if len(revs) == 0 {
		return 0, nil, snapshot.ErrNone
	}
	rev := revs[len(revs)-1]
	// The client gives a get without a deadline its default API timeout
	// (5 s) for the whole object: too short for a large snapshot on a
	// loaded cluster. Bound it ourselves.
	ctx, cancel := context.WithTimeout(ctx, transferTimeout)
	defer cancel()
	blob, err := s.os.GetBytes(ctx, Name(rev))
	if err != nil {
		return 0, nil, fmt.Errorf("natsobj: get snapshot %d: %w", rev, err)
	}
	return rev, blob, nil
}

// Prune implements snapshot.Store.
func (s *Store) Prune(ctx context.Context, keep int) error {
	revs, err := s.revisions(ctx)
	if err != nil {
		return err
	}
	var errs []error
	for i := 0; i < len(revs)-keep; i++ {
		if err := s.os.Delete(ctx, Name(revs[i])); err != nil && !errors.Is(err, jetstream.ErrObjectNotFound) {
			errs = append(errs, fmt.Errorf("natsobj: delete snapshot %d: %w", revs[i], err))
		}
	}
	return errors.Join(errs...)
}

// revisions lists the stored snapshots' revisions, ascending.
func (s *Store) revisions(ctx context.Context) ([]uint64, error) {
	infos, err := s.os.List(ctx)
	if errors.Is(err, jetstream.ErrNoObjectsFound) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("natsobj: list snapshots: %w", err)
	}
	var revs []uint64
	for _, in := range infos {
		r, ok := strings.CutPrefix(in.Name, prefix)
		if !ok || in.Deleted {
			continue
		}
		if n, err := strconv.ParseUint(r, 10, 64); err == nil {
			revs = append(revs, n)
		}
	}
	slices.Sort(revs)
	return revs, nil
}
