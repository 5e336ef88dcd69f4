package shred

import (
	"context"
	"errors"
	"fmt"
	"github.com/cmem/cmem/events"

	"github.com/cmem/cmem/vectors"
)

// DurableStore is a vector store that outlives the process (Weaviate).
type DurableStore interface {
	vectors.Store
	vectors.Checkpointer
}

// SealedStore keeps a durable vector store free of plaintext: a fragment's
// key and value are sealed under the fragment's data key before they are
// written, and opened when read. Destroying the key therefore erases the
// text from the store's files at once, not when the store gets round to
// compacting its tombstones; a fragment whose key is gone is left out of
// every answer. Ids, provenance and the vector stay in clear: they are what
// the store filters and ranks on.
type SealedStore struct {
	DurableStore
	keys Keys
}

// SealStore wraps st.
func SealStore(st DurableStore, keys Keys) *SealedStore {
	return &SealedStore{DurableStore: st, keys: keys}
}

// Unwrap is the store under the seal, for wrappers that configure it
// (weaviate.Leased shares its reader labels through the class).
func (s *SealedStore) Unwrap() vectors.Store { return s.DurableStore }

// Upsert seals each fragment's text; one whose key is destroyed (erased
// since the event was read) is not written.
func (s *SealedStore) Upsert(ctx context.Context, fs []vectors.Fragment) error {
	out := make([]vectors.Fragment, 0, len(fs))
	for _, f := range fs {
		id := KeyID(events.DataSubject{User: f.User, Fragment: f.ID})
		key, err := s.keys.Key(ctx, id)
		if errors.Is(err, ErrNoKey) {
			continue
		}
		if err != nil {
			return err
		}
		aead, err := newAEAD(key)
		if err != nil {
			return err
		}
		f.Key, f.Value = seal(aead, id, []byte(f.Key)), seal(aead, id, []byte(f.Value))
		out = append(out, f)
	}
	return s.DurableStore.Upsert(ctx, out)
}

// Search opens the hits' text and leaves out erased ones.
func (s *SealedStore) Search(ctx context.Context, vector []float32, f vectors.Filter, k int) ([]vectors.Hit, error) {
	hits, err := s.DurableStore.Search(ctx, vector, f, k)
	if err != nil {
		return nil, err
	}
	out := hits[:0]
	for _, h := range hits {
		ok, err := s.open(ctx, &h.Fragment)
		if err != nil {
			return nil, err
		}
		if ok {
			out = append(out, h)
		}
	}
	return out, nil
}

// Get opens the fragments' text and leaves out erased ones.
func (s *SealedStore) Get(ctx context.Context, ids []string) ([]vectors.Fragment, error) {
	fs, err := s.DurableStore.Get(ctx, ids)
	if err != nil {
		return nil, err
	}
	out := fs[:0]
	for _, f := range fs {
		ok, err := s.open(ctx, &f)
		if err != nil {
			return nil, err
		}
		if ok {
			out = append(out, f)
		}
	}
	return out, nil
}

// open opens f's key and value in place; false means its key is gone.
func (s *SealedStore) open(ctx context.Context, f *vectors.Fragment) (bool, error) {
	sealer := Sealer{keys: s.keys}
	for _, field := range []*string{&f.Key, &f.Value} {
		plain, err := sealer.open(ctx, *field)
		if errors.Is(err, ErrNoKey) {
			return false, nil
		}
		if err != nil {
			return false, fmt.Errorf("shred: open fragment %s in the vector store: %w", f.ID, err)
		}
		*field = string(plain)
	}
	return true, nil
}

// HybridSearch implements vectors.HybridSearcher by vector alone: the
// store holds only sealed text, which its own lexical index cannot read,
// so ranking by it would rank ciphertext. Each hit's Cosine is its Score,
// and its text is opened (erased fragments left out) as Search does.
func (s *SealedStore) HybridSearch(ctx context.Context, q vectors.Query, f vectors.Filter, k int) ([]vectors.Hit, error) {
	hits, err := s.Search(ctx, q.Vector, f, k)
	for i := range hits {
		hits[i].Cosine = hits[i].Score
	}
	return hits, err
}
