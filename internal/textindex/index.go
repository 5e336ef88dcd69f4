package textindex

import (
	"math"
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
	ids   map[string]int32 // live id → slot
	terms map[string]*term
	// live and totalLen give N and the average document length.
	live     int
	totalLen int
	dead     int

	scratch sync.Pool
}

type slot struct {
	id    string
	alive bool
	len   int32
	terms []string // distinct terms, to update postings on Remove
}

// term is one term's postings, which may include dead slots; df counts the
// live ones only.
type term struct {
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
}

// New returns an empty Index. It panics if cfg.Validate fails, as a
// misconfigured index is a programming error.
func New(cfg Config) *Index {
	cfg = cfg.WithDefaults()
	if err := cfg.Validate(); err != nil {
		panic(err)
	}
	ix := &Index{cfg: cfg, ids: map[string]int32{}, terms: map[string]*term{}}
	ix.scratch.New = func() any { return &scratch{} }
	return ix
}

// Tokens returns the terms the index makes of text: Tokenize, then Stem
// when Config.Stem is set.
func (ix *Index) Tokens(text string) []string {
	toks := Tokenize(text)
	if ix.cfg.Stem {
		for i, t := range toks {
			toks[i] = Stem(t)
		}
	}
	return toks
}

// Len is the number of documents in the index.
func (ix *Index) Len() int {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	return ix.live
}

// Add indexes text under id, replacing what id held before. A text with no
// tokens is still a document (it counts in N and matches nothing).
func (ix *Index) Add(id, text string) {
	toks := ix.Tokens(text)
	tf := make(map[string]int32, len(toks))
	for _, t := range toks {
		tf[t]++
	}
	ix.mu.Lock()
	defer ix.mu.Unlock()
	ix.removeLocked(id)
	s := int32(len(ix.slots))
	distinct := make([]string, 0, len(tf))
	for t, n := range tf {
		tm := ix.terms[t]
		if tm == nil {
			tm = &term{}
			ix.terms[t] = tm
		}
		tm.postings = append(tm.postings, posting{slot: s, tf: n})
		tm.df++
		distinct = append(distinct, t)
	}
	ix.slots = append(ix.slots, slot{id: id, alive: true, len: int32(len(toks)), terms: distinct})
	ix.ids[id] = s
	ix.live++
	ix.totalLen += len(toks)
}

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
	sl.alive = false
	ix.live--
	ix.dead++
	ix.totalLen -= int(sl.len)
	for _, t := range sl.terms {
		tm := ix.terms[t]
		tm.df--
		switch {
		case tm.df == 0:
			delete(ix.terms, t)
		case len(tm.postings) > 2*tm.df+8:
			// More dead postings than live ones: drop them, so a
			// search never walks more than about twice the live list.
			live := tm.postings[:0]
			for _, p := range tm.postings {
				if ix.slots[p.slot].alive {
					live = append(live, p)
				}
			}
			tm.postings = live
		}
	}
	sl.terms = nil
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
	for i, sl := range ix.slots {
		renum[i] = -1
		if sl.alive {
			renum[i] = int32(len(slots))
			ix.ids[sl.id] = renum[i]
			slots = append(slots, sl)
		}
	}
	for _, tm := range ix.terms {
		live := tm.postings[:0]
		for _, p := range tm.postings {
			if r := renum[p.slot]; r >= 0 {
				live = append(live, posting{slot: r, tf: p.tf})
			}
		}
		tm.postings = live
	}
	ix.slots = slots
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
	sc := ix.scratch.Get().(*scratch)
	defer ix.scratch.Put(sc)
	if len(sc.scores) < len(ix.slots) {
		sc.scores = make([]float64, len(ix.slots))
	}
	scores := sc.scores
	n := float64(ix.live)
	avg := float64(ix.totalLen) / n
	if avg == 0 {
		avg = 1
	}
	k1, b := ix.cfg.K1, ix.cfg.B
	seen := make(map[string]bool, len(terms))
	for _, t := range terms {
		if seen[t] {
			continue
		}
		seen[t] = true
		tm := ix.terms[t]
		if tm == nil {
			continue
		}
		df := float64(tm.df)
		idf := math.Log(1 + (n-df+0.5)/(df+0.5))
		for _, p := range tm.postings {
			sl := &ix.slots[p.slot]
			if !sl.alive {
				continue
			}
			f := float64(p.tf)
			norm := k1 * (1 - b + b*float64(sl.len)/avg)
			if scores[p.slot] == 0 {
				sc.touched = append(sc.touched, p.slot)
			}
			scores[p.slot] += idf * f * (k1 + 1) / (f + norm)
		}
	}
	top := make([]Hit, 0, min(k, len(sc.touched))+1)
	for _, s := range sc.touched {
		h := Hit{ID: ix.slots[s].id, Score: scores[s]}
		scores[s] = 0 // leave the scratch clean for the next search
		if h.Score <= 0 {
			continue
		}
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
