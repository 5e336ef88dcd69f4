package weaviate

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"sync/atomic"
	"time"

	"github.com/go-openapi/strfmt"
	"github.com/google/uuid"
	"github.com/weaviate/weaviate-go-client/v4/weaviate"
	"github.com/weaviate/weaviate-go-client/v4/weaviate/fault"
	"github.com/weaviate/weaviate-go-client/v4/weaviate/grpc"
	"github.com/weaviate/weaviate/entities/models"

	"github.com/cmem/cmem/vectors"
)

// ErrClosed is returned by every call on a Store after Close.
var ErrClosed = errors.New("weaviate: store is closed")

// Store is a vectors.Store on one Weaviate class.
type Store struct {
	cfg    Config
	client *weaviate.Client
	search *grpcSearch // nil without Config.GRPCAddr: searches use GraphQL
	labels *readers    // nil with Config.ExclusionFilter (or under Leased)
	closed atomic.Bool
	// unlabelled is set once a Store without labels has forgotten the
	// persisted registry (forget.go).
	unlabelled unlabelled
}

var _ vectors.Store = (*Store)(nil)

// Open connects to Weaviate, waits until it is ready (bounded by
// cfg.StartupTimeout and ctx) and creates the class if it does not exist.
func Open(ctx context.Context, cfg Config) (*Store, error) {
	cfg = cfg.WithDefaults()
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	u, err := url.Parse(cfg.URL)
	if err != nil {
		return nil, fmt.Errorf("weaviate: %w", err)
	}
	wc := weaviate.Config{Scheme: u.Scheme, Host: u.Host, Timeout: cfg.RequestTimeout}
	if cfg.GRPCAddr != "" {
		wc.GrpcConfig = &grpc.Config{Host: cfg.GRPCAddr}
	}
	// StartupTimeout stays 0 here: the client's own wait ignores ctx.
	client, err := weaviate.NewClient(wc)
	if err != nil {
		return nil, fmt.Errorf("weaviate: new client: %w", err)
	}
	s := &Store{cfg: cfg, client: client}
	if cfg.GRPCAddr != "" {
		if s.search, err = dialSearch(cfg.GRPCAddr); err != nil {
			return nil, err
		}
	}
	if err := s.waitReady(ctx); err != nil {
		_ = s.Close()
		return nil, err
	}
	if err := s.ensureClass(ctx); err != nil {
		_ = s.Close()
		return nil, err
	}
	if !cfg.ExclusionFilter {
		if err := s.openLabels(ctx); err != nil {
			_ = s.Close()
			return nil, err
		}
	}
	return s, nil
}

// openLabels turns reader labels on: the readers property, the persisted
// registry read, and the materialiser started (it materialises the
// classes persisted not ready at once, if this Store writes the class).
func (s *Store) openLabels(ctx context.Context) error {
	if err := s.ensureReadersProperty(ctx); err != nil {
		return err
	}
	if err := s.ensureRegistryClass(ctx); err != nil {
		return err
	}
	s.labels = newReaders(s.cfg.MaxReaderClasses, s.cfg.ReaderClassIdle)
	s.labels.shared = s.cfg.Shared
	if err := s.sync(ctx, false); err != nil {
		return err
	}
	s.startMaterialiser()
	s.labels.signal()
	return nil
}

func (s *Store) waitReady(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, s.cfg.StartupTimeout)
	defer cancel()
	tick := time.NewTicker(250 * time.Millisecond)
	defer tick.Stop()
	for {
		ready, err := s.client.Misc().ReadyChecker().Do(ctx)
		if err == nil && ready {
			return nil
		}
		select {
		case <-ctx.Done():
			if err != nil {
				return fmt.Errorf("weaviate: %s not ready: %w", s.cfg.URL, errors.Join(ctx.Err(), err))
			}
			return fmt.Errorf("weaviate: %s not ready: %w", s.cfg.URL, ctx.Err())
		case <-tick.C:
		}
	}
}

// Config returns the configuration in use, defaults applied.
func (s *Store) Config() Config { return s.cfg }

// Upsert writes fs in batches of cfg.BatchSize. Every fragment is checked
// before anything is sent; a batch the server partly rejects returns the
// joined per-object errors (re-running the Upsert is safe).
func (s *Store) Upsert(ctx context.Context, fs []vectors.Fragment) error {
	if s.closed.Load() {
		return ErrClosed
	}
	// Labels are computed and written under the registry's read lock: a
	// class registered after this batch's labels would otherwise be
	// materialised around objects that land without its label.
	if err := s.lockLabels(ctx); err != nil {
		return err
	}
	defer s.unlockLabels()
	objs := make([]*models.Object, len(fs))
	for i := range fs {
		o, err := s.object(&fs[i])
		if err != nil {
			return err
		}
		objs[i] = o
	}
	for b := 0; b < len(objs); b += s.cfg.BatchSize {
		batch := objs[b:min(b+s.cfg.BatchSize, len(objs))]
		resp, err := s.client.Batch().ObjectsBatcher().WithObjects(batch...).Do(ctx)
		if err != nil {
			return fmt.Errorf("weaviate: batch of %d: %w", len(batch), err)
		}
		if err := batchErrors(resp); err != nil {
			return err
		}
	}
	return nil
}

// lockLabels takes the registry's read lock for a write (a shared Store
// reads the persisted registry first: shared.go), or, without labels,
// forgets the persisted registry before the first write.
func (s *Store) lockLabels(ctx context.Context) error {
	r := s.labels
	if r == nil {
		return s.forgetRegistry(ctx)
	}
	r.mu.RLock()
	shared := r.shared
	r.mu.RUnlock()
	if shared {
		if err := s.sync(ctx, true); err != nil {
			return err
		}
	}
	r.mu.RLock()
	return nil
}

func (s *Store) unlockLabels() {
	if r := s.labels; r != nil {
		r.mu.RUnlock()
	}
}

func (s *Store) object(f *vectors.Fragment) (*models.Object, error) {
	if _, err := uuid.Parse(f.ID); err != nil {
		return nil, fmt.Errorf("weaviate: fragment id %q is not a UUID: %w", f.ID, err)
	}
	if len(f.Vector) != s.cfg.Dims {
		return nil, fmt.Errorf("weaviate: fragment %s has %d dimensions, store has %d: %w",
			f.ID, len(f.Vector), s.cfg.Dims, vectors.ErrDimension)
	}
	o := &models.Object{
		Class:  s.cfg.Class,
		ID:     strfmt.UUID(f.ID),
		Vector: f.Vector,
		Properties: map[string]any{
			propID: f.ID, propKey: f.Key, propValue: f.Value,
			propTier: f.Tier, propUser: f.User,
			// Never nil: an absent array and an empty one must both pass
			// the subset filter, and an empty one says so explicitly.
			propAgents: nonNil(f.Agents), propResources: nonNil(f.Resources),
			propCreatedAt: f.CreatedAt.UTC().Format(time.RFC3339Nano),
			propRevision:  int64(f.Revision), // revisions stay far below 2^53, which JSON and structpb keep exactly
			propModel:     f.Model,
		},
	}
	if s.labels != nil {
		o.Properties.(map[string]any)[propReaders] = s.labels.labelsFor(f)
	}
	return o, nil
}

func nonNil(xs []string) []string {
	if xs == nil {
		return []string{}
	}
	return xs
}

func batchErrors(resp []models.ObjectsGetResponse) error {
	var errs []error
	for _, r := range resp {
		if r.Result == nil || r.Result.Errors == nil {
			continue
		}
		for _, e := range r.Result.Errors.Error {
			errs = append(errs, fmt.Errorf("weaviate: object %s: %s", r.ID, e.Message))
		}
	}
	return errors.Join(errs...)
}

// Delete removes the objects with these ids; ids not stored (or not UUIDs,
// which are never stored) are ignored. Weaviate writes a tombstone: the
// bytes of the object leave its segment files when they are compacted.
func (s *Store) Delete(ctx context.Context, ids []string) error {
	if s.closed.Load() {
		return ErrClosed
	}
	// Under the read lock, so that a materialisation page never PATCHes
	// an object deleted between its read and its write.
	if err := s.lockLabels(ctx); err != nil {
		return err
	}
	defer s.unlockLabels()
	for _, id := range ids {
		if _, err := uuid.Parse(id); err != nil {
			continue
		}
		err := s.client.Data().Deleter().WithClassName(s.cfg.Class).WithID(id).Do(ctx)
		var ue *fault.WeaviateClientError
		if errors.As(err, &ue) && ue.StatusCode == http.StatusNotFound {
			continue
		}
		if err != nil {
			return fmt.Errorf("weaviate: delete %s: %w", id, err)
		}
	}
	return nil
}

// Count returns the number of objects in the class.
func (s *Store) Count(ctx context.Context) (int, error) {
	if s.closed.Load() {
		return 0, ErrClosed
	}
	return s.count(ctx)
}

// Reset drops the class and creates it again: faster than deleting objects
// and it leaves no tombstones for the index to clean.
func (s *Store) Reset(ctx context.Context) error {
	if s.closed.Load() {
		return ErrClosed
	}
	if err := s.drop(ctx); err != nil {
		return err
	}
	return s.ensureClass(ctx)
}

// Drop deletes the class and every fragment in it; the Store is closed.
func (s *Store) Drop(ctx context.Context) error {
	if s.closed.Load() {
		return ErrClosed
	}
	defer s.closed.Store(true)
	s.stopMaterialiser()
	if err := s.dropClass(ctx, s.registryClass()); err != nil {
		return err
	}
	return s.drop(ctx)
}

func (s *Store) drop(ctx context.Context) error {
	// The checkpoint goes first: a crash between the two deletes must not
	// leave a checkpoint that claims fragments the class no longer holds.
	// The persisted reader classes stay true of an empty class.
	if err := s.dropClass(ctx, s.checkpointClass()); err != nil {
		return err
	}
	exists, err := s.client.Schema().ClassExistenceChecker().WithClassName(s.cfg.Class).Do(ctx)
	if err != nil {
		return fmt.Errorf("weaviate: check class %s: %w", s.cfg.Class, err)
	}
	if !exists {
		return nil
	}
	if err := s.client.Schema().ClassDeleter().WithClassName(s.cfg.Class).Do(ctx); err != nil {
		return fmt.Errorf("weaviate: delete class %s: %w", s.cfg.Class, err)
	}
	return nil
}

// Close marks the store closed and closes the search connection. The data
// stays on the server. (The client offers no way to close its own
// connections; they go with the process.)
func (s *Store) Close() error {
	if s.closed.Swap(true) {
		return nil
	}
	s.stopMaterialiser()
	if s.search == nil {
		return nil
	}
	if err := s.search.conn.Close(); err != nil {
		return fmt.Errorf("weaviate: close gRPC: %w", err)
	}
	return nil
}
