package textindex

import (
	"slices"
	"strings"
	"sync"
)

// Vocab numbers the terms of the indexes that share it (NewShared). A
// store that keeps one index per partition (a tier, a user) would
// otherwise build one vocabulary per partition, copying and tabling the
// same common words in each; with a Vocab a word is named once, and a
// document's tokens are numbered by one lookup each in one table.
//
// It counts, for each term, the documents of all its indexes that hold
// it (pending ones included) and drops the term, name and all, when that
// count falls to zero: as in a lone index, no word of an erased text
// stays (Has).
//
// A Vocab is safe for concurrent use; an index takes its lock inside its
// own, never the other way round.
type Vocab struct {
	mu    sync.RWMutex
	table termTable
	// names, hashes and count are by term number; a free number (in
	// free) has name "" and count 0.
	names  []string
	hashes []uint64
	count  []int32
	free   []int32
	// mark is numberDoc's note, by term number, of where in its entries
	// the term was last put (+ 1), to count a repeat without a search.
	mark []int32
	// sink keeps numberDoc's early loads of the table (touch) from being
	// compiled away.
	sink uint64
}

// NewVocab returns an empty Vocab.
func NewVocab() *Vocab { return &Vocab{} }

// Has reports whether a document of an index sharing v holds term (a
// term as the indexes make it: Index.Tokens).
func (v *Vocab) Has(term string) bool { return v.lookup(term) >= 0 }

// Len is the number of terms the indexes sharing v hold.
func (v *Vocab) Len() int {
	v.mu.RLock()
	defer v.mu.RUnlock()
	return v.table.n
}

// lookup returns the number of term t, or -1.
func (v *Vocab) lookup(t string) int32 {
	v.mu.RLock()
	defer v.mu.RUnlock()
	return v.table.find(v.names, t, hashTerm(t))
}

// size is one more than the largest term number in use, at least.
func (v *Vocab) size() int {
	v.mu.RLock()
	defer v.mu.RUnlock()
	return len(v.names)
}

// numberDoc appends to ents a document's distinct terms, by number, with
// their counts in toks (hs their hashes), numbering the new ones, and
// counts the document as holding each.
func (v *Vocab) numberDoc(toks []string, hs []uint64, ents []entry) []entry {
	v.mu.Lock()
	defer v.mu.Unlock()
	// Looking a token up is mostly waiting for memory; the lookups of a
	// document are independent, so their first loads are issued together
	// here and the waits overlap. Their sum is kept, or the compiler
	// drops the loads (as it did when it was not).
	v.sink = v.table.touch(hs)
	if need := len(v.names) + len(toks); len(v.mark) < need {
		v.mark = slices.Grow(v.mark, need-len(v.mark))[:need]
	}
	base := len(ents)
	for i, t := range toks {
		tid := v.table.find(v.names, t, hs[i])
		if tid < 0 {
			tid = v.newTerm(t, hs[i])
		}
		// mark[tid] is where the term was last put, + 1: when that is
		// among this document's entries and names the term, the token
		// is a repeat. A stale mark (another document's) is outside
		// them or names another term.
		if m := int(v.mark[tid]) - 1; m >= base && m < len(ents) && ents[m].tid == tid {
			ents[m].tf++
			continue
		}
		v.mark[tid] = int32(len(ents) + 1)
		ents = append(ents, entry{tid: tid, tf: 1})
		v.count[tid]++
	}
	return ents
}

// newTerm numbers the new term t, whose hash is h. v.mu is held.
func (v *Vocab) newTerm(t string, h uint64) int32 {
	// A copy, so the vocabulary does not keep the whole text alive for
	// one of its words.
	name := strings.Clone(t)
	var tid int32
	if n := len(v.free); n > 0 {
		tid = v.free[n-1]
		v.free = v.free[:n-1]
		v.names[tid], v.hashes[tid] = name, h
	} else {
		tid = int32(len(v.names))
		v.names = append(v.names, name)
		v.hashes = append(v.hashes, h)
		v.count = append(v.count, 0)
	}
	v.table.insert(name, h, tid)
	return tid
}

// release uncounts a document holding the terms of ents, dropping each
// term no document holds any more.
func (v *Vocab) release(ents []entry) {
	v.mu.Lock()
	defer v.mu.Unlock()
	for _, e := range ents {
		if v.count[e.tid]--; v.count[e.tid] == 0 {
			v.table.remove(e.tid, v.hashes[e.tid])
			v.names[e.tid], v.hashes[e.tid] = "", 0
			v.free = append(v.free, e.tid)
		}
	}
}
