// Package natsobj keeps projection snapshots in a JetStream object store,
// replicated like the event stream: a snapshot is stored as parts of at
// most PartSize bytes, then a small manifest object named by its revision,
// written last, so a snapshot is listed only once it is whole.
package natsobj

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/cmem/cmem/projectors/snapshot"
)

// Bucket is the default object store bucket.
const Bucket = "cmem_snapshots"

const prefix = "projections-"

// transferTimeout bounds one snapshot's upload or download.
const transferTimeout = 10 * time.Minute

// PartSize bounds one object of a snapshot. The client publishes an
// object's chunks (128 KiB each) asynchronously and waits only at its end,
// so an object's size is what is in flight to the stream at once: a
// 450 MB snapshot sent as one object was refused by a loaded R3 cluster
// ("429 too many requests"); 8 MiB parts keep 64 chunks in flight.
const PartSize = 8 << 20

// manifest is the object named by a snapshot's revision.
type manifest struct {
	Parts int `json:"parts"`
	Size  int `json:"size"`
}

func partName(revision uint64, i int) string { return fmt.Sprintf("%s.part-%06d", Name(revision), i) }

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

// Put implements snapshot.Store: the parts, then the manifest.
func (s *Store) Put(ctx context.Context, revision uint64, blob []byte) error {
	ctx, cancel := context.WithTimeout(ctx, transferTimeout)
	defer cancel()
	m := manifest{Size: len(blob)}
	for off := 0; off < len(blob) || m.Parts == 0; off += PartSize {
		part := blob[off:min(off+PartSize, len(blob))]
		if _, err := s.os.PutBytes(ctx, partName(revision, m.Parts), part); err != nil {
			return fmt.Errorf("natsobj: put snapshot %d part %d: %w", revision, m.Parts, err)
		}
		m.Parts++
	}
	head, err := json.Marshal(m)
	if err != nil {
		return fmt.Errorf("natsobj: encode manifest: %w", err)
	}
	if _, err := s.os.PutBytes(ctx, Name(revision), head); err != nil {
		return fmt.Errorf("natsobj: put snapshot %d manifest: %w", revision, err)
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
	head, err := s.os.GetBytes(ctx, Name(rev))
	if err != nil {
		return 0, nil, fmt.Errorf("natsobj: get snapshot %d: %w", rev, err)
	}
	var m manifest
	if err := json.Unmarshal(head, &m); err != nil || m.Parts <= 0 || m.Size < 0 {
		return 0, nil, fmt.Errorf("%w: snapshot %d has no manifest", snapshot.ErrCorrupt, rev)
	}
	var blob bytes.Buffer
	blob.Grow(m.Size)
	for i := range m.Parts {
		part, err := s.os.GetBytes(ctx, partName(rev, i))
		if err != nil {
			return 0, nil, fmt.Errorf("natsobj: get snapshot %d part %d: %w", rev, i, err)
		}
		blob.Write(part)
	}
	if blob.Len() != m.Size {
		return 0, nil, fmt.Errorf("%w: snapshot %d is %d bytes, its manifest says %d", snapshot.ErrCorrupt, rev, blob.Len(), m.Size)
	}
	return rev, blob.Bytes(), nil
}

// Prune implements snapshot.Store: it deletes all but the keep newest
// snapshots, and the parts of uploads that never got their manifest.
func (s *Store) Prune(ctx context.Context, keep int) error {
	infos, err := s.list(ctx)
	if err != nil {
		return err
	}
	revs := manifests(infos)
	kept := map[uint64]bool{}
	for _, r := range revs[max(len(revs)-keep, 0):] {
		kept[r] = true
	}
	var manifestsGone, partsGone []string
	for _, in := range infos {
		r, isPart, ok := parseName(in.Name)
		if !ok || in.Deleted || kept[r] {
			continue
		}
		if isPart {
			partsGone = append(partsGone, in.Name)
		} else {
			manifestsGone = append(manifestsGone, in.Name)
		}
	}
	var errs []error
	// Manifests first: a half-deleted snapshot is never listed.
	for _, name := range append(manifestsGone, partsGone...) {
		if err := s.os.Delete(ctx, name); err != nil && !errors.Is(err, jetstream.ErrObjectNotFound) {
			errs = append(errs, fmt.Errorf("natsobj: delete %s: %w", name, err))
		}
	}
	return errors.Join(errs...)
}

// revisions lists the stored snapshots' revisions, ascending.
func (s *Store) revisions(ctx context.Context) ([]uint64, error) {
	infos, err := s.list(ctx)
	if err != nil {
		return nil, err
	}
	return manifests(infos), nil
}

// manifests returns the revisions of the whole snapshots among infos,
// ascending.
func manifests(infos []*jetstream.ObjectInfo) []uint64 {
	var revs []uint64
	for _, in := range infos {
		if r, isPart, ok := parseName(in.Name); ok && !isPart && !in.Deleted {
			revs = append(revs, r)
		}
	}
	slices.Sort(revs)
	return revs
}

// parseName reads an object name: a manifest's or a part's revision.
func parseName(name string) (revision uint64, isPart, ok bool) {
	r, ok := strings.CutPrefix(name, prefix)
	if !ok {
		return 0, false, false
	}
	r, _, isPart = strings.Cut(r, ".part-")
	n, err := strconv.ParseUint(r, 10, 64)
	return n, isPart, err == nil
}
