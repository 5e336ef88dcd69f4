package inmem

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"sync"

	"github.com/cmem/cmem/internal/textindex"
	"github.com/cmem/cmem/vectors"
)

// ErrClosed is returned by every call on a Store after Close.
var ErrClosed = errors.New("inmem: store is closed")

// Store is the in-process vectors.Store. The zero value is not usable; call
// New.
type Store struct {
	dims   int
	noText bool // Options.NoText

	mu     sync.RWMutex
	closed bool
	parts  map[partKey]*partition
	where  map[string]slot // fragment id → its partition and row
	agents interner
	res    interner
	// Bitset strides in 64-bit words, shared by every partition so that a
	// filter's bitsets are built once per search.
	aWords, rWords int
	// text is each partition's lexical index over its fragments' chunks
	// (hybrid.go, chunks.go); fids maps a fragment's text number to its
	// row.
	text map[partKey]*textPart
	fids fids
	// vocab numbers the terms of every partition's text index: a word
	// common to many partitions is named and tabled once, not once per
	// partition (a user's private tier is its own partition).
	vocab *textindex.Vocab
}

type slot struct {
	p   *partition
	row int
}

var _ vectors.Store = (*Store)(nil)

// New returns an empty Store for vectors of dims dimensions.
func New(dims int) (*Store, error) { return NewWith(dims, Options{}) }

// Options tune a Store.
type Options struct {
	// NoText leaves fragments' text out of the lexical index: HybridSearch
	// then ranks by the vector side alone. It is the ingest benchmark's
	// baseline (what indexing content costs) and a choice for a view
	// whose texts are not worth indexing.
	NoText bool
}

// NewWith is New with options.
func NewWith(dims int, o Options) (*Store, error) {
	if dims <= 0 {
		return nil, fmt.Errorf("inmem: dimension must be positive, got %d", dims)
	}
	s := &Store{dims: dims, noText: o.NoText}
	s.clear()
	return s, nil
}

func (s *Store) clear() {
	s.parts = map[partKey]*partition{}
	s.where = map[string]slot{}
	s.agents = newInterner()
	s.res = newInterner()
	s.aWords, s.rWords = 1, 1
	s.text = map[partKey]*textPart{}
	s.fids = fids{}
	s.vocab = textindex.NewVocab()
}

// Dims returns the vector dimension of the store.
func (s *Store) Dims() int { return s.dims }

// Upsert indexes fs, replacing fragments with the same ID wherever they
// were (a fragment may move to another tier or user). Nothing is stored
// unless every fragment is valid.
func (s *Store) Upsert(ctx context.Context, fs []vectors.Fragment) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	for i := range fs {
		if err := s.check(&fs[i]); err != nil {
			return err
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return ErrClosed
	}
	for i := range fs {
		s.upsertLocked(&fs[i])
	}
	return nil
}

func (s *Store) check(f *vectors.Fragment) error {
	if f.ID == "" {
		return errors.New("inmem: fragment without id")
	}
	if len(f.Vector) != s.dims {
		return fmt.Errorf("inmem: fragment %s has %d dimensions, store has %d: %w",
			f.ID, len(f.Vector), s.dims, vectors.ErrDimension)
	}
	if !finite(f.Vector) {
		return fmt.Errorf("inmem: fragment %s: vector has a NaN or infinite value", f.ID)
	}
	return nil
}

func finite(v []float32) bool {
	for _, x := range v {
		if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
			return false
		}
	}
	return true
}

func (s *Store) upsertLocked(f *vectors.Fragment) {
	if old, ok := s.where[f.ID]; ok {
		s.removeLocked(old)
	}
	agents := s.agents.internAll(f.Agents)
	res := s.res.internAll(f.Resources)
	s.widen()
	k := keyOf(f.Tier, f.User)
	p := s.partitionFor(k)
	row := p.add(f, agents, res, s.indexText(k, f))
	s.where[f.ID] = slot{p: p, row: row}
	s.fids.at[p.lex[row].fid] = slot{p: p, row: row}
}

// widen grows every partition's bitsets when the universe of interned ids
// outgrows the stride; the stride doubles, so widening is amortised.
func (s *Store) widen() {
	if need := wordsFor(s.agents.len()); need > s.aWords {
		w := max(need, 2*s.aWords)
		for _, p := range s.parts {
			p.agents, p.aWords = restripe(p.agents, p.aWords, w), w
		}
		s.aWords = w
	}
	if need := wordsFor(s.res.len()); need > s.rWords {
		w := max(need, 2*s.rWords)
		for _, p := range s.parts {
			p.res, p.rWords = restripe(p.res, p.rWords, w), w
		}
		s.rWords = w
	}
}

func (s *Store) partitionFor(k partKey) *partition {
	p, ok := s.parts[k]
	if !ok {
		p = newPartition(s.dims, s.aWords, s.rWords)
		s.parts[k] = p
	}
	return p
}

func (s *Store) removeLocked(at slot) {
	id := at.p.meta[at.row].ID
	s.unindexText(at)
	if moved, ok := at.p.remove(at.row); ok {
		s.where[moved] = slot{p: at.p, row: at.row}
		s.fids.at[at.p.lex[at.row].fid] = slot{p: at.p, row: at.row}
	}
	delete(s.where, id)
}

// Get returns the fragments with these ids that exist, each with its vector.
func (s *Store) Get(ctx context.Context, ids []string) ([]vectors.Fragment, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.closed {
		return nil, ErrClosed
	}
	out := make([]vectors.Fragment, 0, len(ids))
	seen := make(map[string]bool, len(ids))
	for _, id := range ids {
		at, ok := s.where[id]
		if !ok || seen[id] {
			continue
		}
		seen[id] = true
		f := at.p.fragment(at.row)
		f.Vector = slices.Clone(at.p.vector(at.row))
		out = append(out, f)
	}
	return out, nil
}

// Delete removes the fragments with these ids; unknown ids are ignored.
func (s *Store) Delete(ctx context.Context, ids []string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return ErrClosed
	}
	for _, id := range ids {
		if at, ok := s.where[id]; ok {
			s.removeLocked(at)
		}
	}
	return nil
}

// Count returns the number of fragments indexed.
func (s *Store) Count(ctx context.Context) (int, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.closed {
		return 0, ErrClosed
	}
	return len(s.where), nil
}

// Reset removes every fragment and forgets the interned ids.
func (s *Store) Reset(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return ErrClosed
	}
	s.clear()
	return nil
}

// Close releases the memory; later calls return ErrClosed.
func (s *Store) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = true
	s.parts, s.where, s.text, s.fids, s.vocab = nil, nil, nil, fids{}, nil
	return nil
}
