package textindex

import (
	"math"
	"slices"
	"strings"
	"sync"
)

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
	ids map[string]int32 // live id → slot
	// terms numbers the terms (termtable.go), termTab holds them by
	// number (a removed term's number is reused): slots list their terms
	// as numbers, which the garbage collector need not scan, rather than
	// as pointers.
	terms     termTable
	termTab   []term
	freeTerms []int32
	// live and totalLen give N and the average document length.
	live     int
	totalLen int
	dead     int

	scratch sync.Pool
	// arena holds every slot's distinct terms' numbers, one run per slot
	// (slot.off, slot.n), so a document costs no allocation of its own;
	// compact drops the runs of dead slots.
	arena []int32
	// slab is where terms' first postings are cut from (firstBlock).
	slab []posting
}

type slot struct {
	id string
	// off and n place the slot's distinct terms' numbers in Index.arena,
	// to update postings on Remove.
	off int
	n   int32
}

// hot is a slot's tag (AddTagged's) and length in tokens; a dead slot's
// len is -1.
type hot struct {
	tag uint32
	len int32
}

func (h hot) alive() bool { return h.len >= 0 }

// term is one term's postings, which may include dead slots; df counts the
// live ones only.
type term struct {
	name     string // its key in Index.terms
	hash     uint64 // hashTerm(name)
	postings []posting
	df       int
}

type posting struct {
	slot int32
	tf   int32
}

type scratch struct {
	scores  []float64
	touched []int32
	// checked and ok are SearchIn's verdicts of its predicate, as bitsets
	// over slots, so the predicate is asked once per document.
	checked, ok []uint64
	// kept is one term's postings that the filter admits.
	kept []posting
	// terms is the query's distinct terms.
	terms []string
}

// New returns an empty Index. It panics if cfg.Validate fails, as a
// misconfigured index is a programming error.
func New(cfg Config) *Index {
	cfg = cfg.WithDefaults()
	if err := cfg.Validate(); err != nil {
		panic(err)
	}
	ix := &Index{cfg: cfg, ids: map[string]int32{}}
	ix.scratch.New = func() any { return &scratch{} }
	return ix
}

// Tokens returns the terms the index makes of text: Tokenize, then Stem
// when Config.Stem is set.
func (ix *Index) Tokens(text string) []string { return ix.appendTokens(nil, text) }

// appendTokens appends Tokens(text) to dst.
func (ix *Index) appendTokens(dst []string, text string) []string {
	start := len(dst)
	dst = appendTokens(dst, text)
	if ix.cfg.Stem {
		for i := start; i < len(dst); i++ {
			dst[i] = Stem(dst[i])
		}
	}
	return dst
}

// Len is the number of documents in the index.
func (ix *Index) Len() int {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	return ix.live
}

// Add indexes text under id, replacing what id held before. A text with no
// tokens is still a document (it counts in N and matches nothing).
func (ix *Index) Add(id, text string) { ix.AddTagged(id, 0, text) }

// AddTagged is Add with a number the caller chooses, which
// SearchInTagged's allow predicate is given instead of the id: a caller
// that keeps its documents in arrays checks a document by its number
// without reading its id. It returns the document's length in tokens.
func (ix *Index) AddTagged(id string, tag uint32, text string) int {
	buf := tokenBufs.Get().(*tokenBuf)
	toks := ix.appendTokens(buf.toks[:0], text)
	n := len(toks)
	// Hashing needs no lock.
	hs := buf.hashes[:0]
	for _, t := range toks {
		hs = append(hs, hashTerm(t))
	}
	ix.mu.Lock()
	ix.removeLocked(id)
	s := int32(len(ix.slots))
	off := len(ix.arena)
	// Looking a token up is mostly waiting for memory (its table entry,
	// then its term, then the term's postings); the lookups of a
	// document are independent, so their first loads are issued together
	// here and the waits overlap.
	ix.terms.touch(hs)
	for i, t := range toks {
		h := hs[i]
		tid := ix.terms.find(ix.termTab, t, h)
		if tid < 0 {
			tid = ix.newTerm(t, h)
		}
		tm := &ix.termTab[tid]
		// Postings are appended in slot order and s is the newest slot,
		// so a repeat of a term in this document is its last posting.
		if last := len(tm.postings) - 1; last >= 0 && tm.postings[last].slot == s {
			tm.postings[last].tf++
			continue
		}
		if tm.postings == nil {
			tm.postings = ix.firstBlock()
		}
		tm.postings = append(tm.postings, posting{slot: s, tf: 1})
		tm.df++
		ix.arena = append(ix.arena, tid)
	}
	ix.slots = append(ix.slots, slot{id: id, off: off, n: int32(len(ix.arena) - off)})
	ix.hot = append(ix.hot, hot{tag: tag, len: int32(n)})
	ix.ids[id] = s
	ix.live++
	ix.totalLen += n
	ix.mu.Unlock()
	clear(toks)
	buf.toks, buf.hashes = toks[:0], hs[:0]
	tokenBufs.Put(buf)
	return n
}

// firstBlockLen is the capacity of a term's first postings, cut from a
// shared slab: most terms of a Zipf vocabulary occur in a few documents
// only, and a small allocation of their own for each was a large part of
// adding a document (and of the collector's work after).
const firstBlockLen = 4

// firstBlock returns an empty postings list with room for firstBlockLen,
// from the index's slab. A list that outgrows it moves to an allocation
// of its own, as append does; the slab's space is reclaimed when every
// list cut from it has moved or gone.
func (ix *Index) firstBlock() []posting {
	if len(ix.slab)+firstBlockLen > cap(ix.slab) {
		ix.slab = make([]posting, 0, 256*firstBlockLen)
	}
	n := len(ix.slab)
	ix.slab = ix.slab[:n+firstBlockLen]
	return ix.slab[n : n : n+firstBlockLen]
}

// newTerm numbers the new term t, whose hash is h.
func (ix *Index) newTerm(t string, h uint64) int32 {
	// A copy, so the index does not keep the whole text alive for one
	// of its words.
	tm := term{name: strings.Clone(t), hash: h}
	var tid int32
	if n := len(ix.freeTerms); n > 0 {
		tid = ix.freeTerms[n-1]
		ix.freeTerms = ix.freeTerms[:n-1]
		ix.termTab[tid] = tm
	} else {
		tid = int32(len(ix.termTab))
		ix.termTab = append(ix.termTab, tm)
	}
	ix.terms.insert(ix.termTab, h, tid)
	return tid
}

// lookup returns the term t, or nil.
func (ix *Index) lookup(t string) *term {
	if tid := ix.terms.find(ix.termTab, t, hashTerm(t)); tid >= 0 {
		return &ix.termTab[tid]
	}
	return nil
}

// tokenBuf is AddTagged's tokens of a document and their hashes.
type tokenBuf struct {
	toks   []string
	hashes []uint64
}

// tokenBufs holds AddTagged's token lists between documents.
var tokenBufs = sync.Pool{New: func() any { return new(tokenBuf) }}

// Remove drops id from the index and reports whether it was there.
func (ix *Index) Remove(id string) bool {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	return ix.removeLocked(id)
}

func (ix *Index) removeLocked(id string) bool {
	s, ok := ix.ids[id]
	if !ok {
		return false
	}
	delete(ix.ids, id)
	sl := &ix.slots[s]
	ix.live--
	ix.dead++
	ix.totalLen -= int(ix.hot[s].len)
	ix.hot[s].len = -1
	for _, tid := range ix.arena[sl.off : sl.off+int(sl.n)] {
		tm := &ix.termTab[tid]
		tm.df--
		switch {
		case tm.df == 0:
			ix.terms.remove(ix.termTab, tid, tm.hash)
			*tm = term{}
			ix.freeTerms = append(ix.freeTerms, tid)
		case len(tm.postings) > 2*tm.df+8:
			// More dead postings than live ones: drop them, so a
			// search never walks more than about twice the live list.
			live := tm.postings[:0]
			for _, p := range tm.postings {
				if ix.hot[p.slot].alive() {
					live = append(live, p)
				}
			}
			tm.postings = live
		}
	}
	sl.n = 0
	if ix.dead > ix.live+1024 {
		ix.compact()
	}
	return true
}

// compact renumbers the live slots from 0, so dead slots stop costing
// memory and scratch space.
func (ix *Index) compact() {
	renum := make([]int32, len(ix.slots))
	slots := make([]slot, 0, ix.live)
	hots := make([]hot, 0, ix.live)
	var arena []int32
	for i, sl := range ix.slots {
		renum[i] = -1
		if ix.hot[i].alive() {
			renum[i] = int32(len(slots))
			ix.ids[sl.id] = renum[i]
			off := len(arena)
			arena = append(arena, ix.arena[sl.off:sl.off+int(sl.n)]...)
			sl.off = off
			slots = append(slots, sl)
			hots = append(hots, ix.hot[i])
		}
	}
	for i := range ix.termTab {
		tm := &ix.termTab[i]
		live := tm.postings[:0]
		for _, p := range tm.postings {
			if r := renum[p.slot]; r >= 0 {
				live = append(live, posting{slot: r, tf: p.tf})
			}
		}
		tm.postings = live
	}
	ix.slots = slots
	ix.hot = hots
	ix.arena = arena
	ix.dead = 0
}

// Search returns up to k documents with a positive BM25 score for query,
// best first (ties by ID). allow, when not nil, is asked about every
// matching document and those it rejects are left out before the top k
// are taken, so the result is exactly the top k of the allowed documents.
// k ≤ 0 returns nil.
func (ix *Index) Search(query string, k int, allow func(id string) bool) []Hit {
	if k <= 0 {
		return nil
	}
	terms := ix.Tokens(query)
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	if ix.live == 0 {
		return nil
	}
	sc := ix.getScratch()
	defer ix.scratch.Put(sc)
	scores, hots := sc.scores, ix.hot
	n := float64(ix.live)
	avg := float64(ix.totalLen) / n
	if avg == 0 {
		avg = 1
	}
	k1, b := ix.cfg.K1, ix.cfg.B
	for _, t := range sc.distinct(terms) {
		tm := ix.lookup(t)
		if tm == nil {
			continue
		}
		df := float64(tm.df)
		idf := math.Log(1 + (n-df+0.5)/(df+0.5))
		for _, p := range tm.postings {
			h := hots[p.slot]
			if !h.alive() {
				continue
			}
			f := float64(p.tf)
			norm := k1 * (1 - b + b*float64(h.len)/avg)
			if scores[p.slot] == 0 {
				sc.touched = append(sc.touched, p.slot)
			}
			scores[p.slot] += idf * f * (k1 + 1) / (f + norm)
		}
	}
	return ix.topOf(sc, k, allow)
}

// getScratch returns a scratch sized for the index's slots, with zero
// scores and no touched slots.
func (ix *Index) getScratch() *scratch {
	sc := ix.scratch.Get().(*scratch)
	if len(sc.scores) < len(ix.slots) {
		sc.scores = make([]float64, len(ix.slots)+len(ix.slots)/4)
	}
	return sc
}

// distinct returns terms without repeats, in their first order (the order
// scores are summed in), in the scratch's buffer.
func (sc *scratch) distinct(terms []string) []string {
	out := sc.terms[:0]
	var seen map[string]bool
	if len(terms) > 64 { // a long query: a map beats the quadratic scan
		seen = make(map[string]bool, len(terms))
	}
	for _, t := range terms {
		switch {
		case seen != nil:
			if seen[t] {
				continue
			}
			seen[t] = true
		case slices.Contains(out, t):
			continue
		}
		out = append(out, t)
	}
	sc.terms = out
	return out
}

// topOf takes the best k of the scored slots that allow admits, and
// leaves the scratch clean for the next search. A slot scoring under the
// k-th best so far is dropped before its id is read.
func (ix *Index) topOf(sc *scratch, k int, allow func(string) bool) []Hit {
	scores := sc.scores
	top := make([]Hit, 0, min(k, len(sc.touched))+1)
	for _, s := range sc.touched {
		score := scores[s]
		scores[s] = 0
		if score <= 0 || (len(top) == k && score < top[k-1].Score) {
			continue
		}
		h := Hit{ID: ix.slots[s].id, Score: score}
		i := len(top)
		for i > 0 && Better(h, top[i-1]) {
			i--
		}
		if i >= k || (allow != nil && !allow(h.ID)) {
			continue
		}
		top = append(top, Hit{})
		copy(top[i+1:], top[i:])
		top[i] = h
		if len(top) > k {
			top = top[:k]
		}
	}
	sc.touched = sc.touched[:0]
	return top
}

// Better orders hits best first: higher score, then smaller ID.
func Better(a, b Hit) bool {
	if a.Score != b.Score {
		return a.Score > b.Score
	}
	return a.ID < b.ID
}
