package textindex

import "sync"

// Hit is one document found by Search.
type Hit struct {
	// ID is the id the document was added with.
	ID string
	// Score is its BM25 score for the query, > 0.
	Score float64
}

// Index is an inverted index with BM25 scoring; see the package comment.
// The zero Index is not usable: call New.
type Index struct {
	cfg Config

	mu sync.RWMutex
	// slots are documents by slot number; a removed document's slot stays
	// (dead) until compact renumbers them, so postings need no rewrite on
	// every Remove.
	slots []slot
	// hot holds what a search reads of every posting's slot, by slot
	// number, apart from the rest of slot so a long posting list walks
	// 8 bytes per document rather than a whole slot.
	hot []hot
	ids map[string]int32 // live id (Add) → slot
	// docs maps AddDoc's numbers to slot+1 (0: none), an array rather
	// than a map: a caller that numbers its documents densely pays two
	// array reads per document, not the hashing of an id.
	docs []int32
	// vocab numbers the terms (vocab.go), perhaps for other indexes too;
	// local maps a term's number to its place in termTab, which holds
	// this index's postings of the terms its built postings hold (a
	// removed term's place is reused). Slots list their terms as
	// numbers, which the garbage collector need not scan, rather than as
	// pointers.
	vocab     *Vocab
	local     map[int32]int32
	termTab   []term
	freeTerms []int32
	// live and totalLen give N and the average document length.
	live     int
	totalLen int
	dead     int

	scratch sync.Pool
	// arena holds every slot's distinct terms and their counts, one run
	// per slot (slot.off, slot.n), so a document costs no allocation of
	// its own; compact drops the runs of dead slots.
	arena []entry
	// flushed is the number of slots whose postings are built: the later
	// ones are pending, their terms in arena only, until flush (flush.go).
	flushed int
	// slab is where terms' first postings are cut from (firstBlock).
	slab []posting
}

type slot struct {
	id  string // Add's id; "" for AddDoc's documents
	doc uint32 // AddDoc's number
	// byDoc marks a document added by AddDoc.
	byDoc bool
	// off and n place the slot's distinct terms in Index.arena, to build
	// its postings and to update them on Remove.
	off int
	n   int32
}

// entry is one of a slot's distinct terms, by its number in the vocab,
// and its count in the slot.
type entry struct {
	tid int32
	tf  int32
}

// hot is a slot's tag (AddTagged's) and length in tokens; a dead slot's
// len is -1.
type hot struct {
	tag uint32
	len int32
}

func (h hot) alive() bool { return h.len >= 0 }

// term is one term's postings, which may include dead slots; df counts the
// live ones whose postings are built only.
type term struct {
	postings []posting
	df       int
	tid      int32 // its number in the vocab
}

type posting struct {
	slot int32
	tf   int32
}

// New returns an empty Index with a vocabulary of its own. It panics if
// cfg.Validate fails, as a misconfigured index is a programming error.
func New(cfg Config) *Index { return NewShared(cfg, NewVocab()) }

// NewShared is New whose terms are numbered in v, which other indexes may
// share (Vocab).
func NewShared(cfg Config, v *Vocab) *Index {
	cfg = cfg.WithDefaults()
	if err := cfg.Validate(); err != nil {
		panic(err)
	}
	ix := &Index{cfg: cfg, ids: map[string]int32{}, vocab: v, local: map[int32]int32{}}
	ix.scratch.New = func() any { return &scratch{} }
	return ix
}

// Len is the number of documents in the index.
func (ix *Index) Len() int {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	return ix.live
}

// HasTerm reports whether a document in the index holds the term the
// index makes of word (Tokens): after the last document holding it is
// removed, nothing of the word is left in the index.
func (ix *Index) HasTerm(word string) bool {
	toks := ix.Tokens(word)
	if len(toks) != 1 {
		return false
	}
	unlock := ix.lockForSearch()
	defer unlock()
	return ix.lookup(toks[0]) != nil
}

// lookup returns the term t, or nil when no document of the index whose
// postings are built holds it.
func (ix *Index) lookup(t string) *term {
	if tid := ix.vocab.lookup(t); tid >= 0 {
		if at, ok := ix.local[tid]; ok {
			return &ix.termTab[at]
		}
	}
	return nil
}

// lockForSearch locks the index for a search and returns the unlock: the
// read lock when every posting is built, else the write lock, under which
// it builds the pending ones first (a search must see every document).
func (ix *Index) lockForSearch() (unlock func()) {
	ix.mu.RLock()
	if ix.flushed == len(ix.slots) {
		return ix.mu.RUnlock
	}
	ix.mu.RUnlock()
	ix.mu.Lock()
	ix.flush()
	return ix.mu.Unlock
}
