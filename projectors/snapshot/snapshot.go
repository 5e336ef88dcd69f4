package snapshot

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"

	"github.com/cmem/cmem/events"
)

// Sentinel errors.
var (
	// ErrVersion is returned by Decode for a blob of another format version.
	ErrVersion = errors.New("snapshot: unsupported format version")
	// ErrCorrupt is returned by Decode for a blob that is truncated, does
	// not start with the magic, or fails its checksum.
	ErrCorrupt = errors.New("snapshot: corrupt")
	// ErrNone is returned by Store.Newest when no snapshot was taken yet.
	ErrNone = errors.New("snapshot: none stored")
	// ErrGone is returned (wrapped) by a Sealer whose key for the content
	// was destroyed: the content was erased and must be dropped.
	ErrGone = errors.New("snapshot: content erased")
)

// Sealer seals the content a section holds under the data key of its data
// subject (implemented over the shred keyring; Clear when content is
// written in clear). Seal never makes a key: content whose key is gone
// fails with ErrGone, so an erasure that ran before the snapshot is never
// undone by it.
type Sealer interface {
	Seal(ctx context.Context, s events.DataSubject, plain []byte) (string, error)
	// Open opens what Seal returned; ErrGone when its key was destroyed.
	Open(ctx context.Context, sealed string) ([]byte, error)
}

// Clear is the Sealer of a process that writes content in clear
// (CMEM_ENCRYPTION=off): the log holds the same content in clear. It only
// encodes (base64, so binary content survives a JSON section); it hides
// nothing.
type Clear struct{}

const clearPrefix = "clear:"

// Seal implements Sealer.
func (Clear) Seal(_ context.Context, _ events.DataSubject, plain []byte) (string, error) {
	return clearPrefix + base64.RawStdEncoding.EncodeToString(plain), nil
}

// Open implements Sealer.
func (Clear) Open(_ context.Context, sealed string) ([]byte, error) {
	b64, ok := strings.CutPrefix(sealed, clearPrefix)
	if !ok {
		return nil, fmt.Errorf("%w: content neither sealed nor clear-encoded", ErrCorrupt)
	}
	b, err := base64.RawStdEncoding.DecodeString(b64)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrCorrupt, err)
	}
	return b, nil
}

// Section is a projection that can be snapshotted.
type Section interface {
	// Name is the projection's stable name; it names its section.
	Name() string
	// MarshalSnapshot encodes the projection's state. It is called while
	// no event is being applied, so the state is that of one revision.
	MarshalSnapshot(ctx context.Context, s Sealer) ([]byte, error)
	// RestoreSnapshot decodes data (taken at revision) into a new state
	// and returns the function that installs it, so that a snapshot that
	// fails half-way leaves every projection as it was.
	RestoreSnapshot(ctx context.Context, s Sealer, revision uint64, data []byte) (install func(), err error)
}

// Store keeps snapshots by revision. Blobs are opaque to it (Decode
// judges them) and come back byte for byte; package snapshottest holds
// every implementation to this contract.
type Store interface {
	// Put stores a snapshot blob taken at revision, replacing one stored
	// at the same revision. The store keeps its own copy.
	Put(ctx context.Context, revision uint64, blob []byte) error
	// Newest returns the snapshot with the highest revision; ErrNone when
	// there is none, and an error wrapping ErrCorrupt when the store finds
	// what it holds for it broken (natsobj: a manifest that does not add
	// up). Either way Restore rebuilds from the log.
	Newest(ctx context.Context) (revision uint64, blob []byte, err error)
	// Prune deletes all but the keep newest snapshots; keep 0 deletes
	// every one. Pruning an empty store is not an error.
	Prune(ctx context.Context, keep int) error
}
