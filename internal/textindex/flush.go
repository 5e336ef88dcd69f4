package textindex

import (
	"slices"
	"sync"
)

// flushEntries is how many pending terms of documents (arena entries)
// add lets gather before it builds their postings. A batch is grouped by
// term, so each term's postings are reached once per batch rather than
// once per document holding it: the larger the batch, the fewer of those
// scattered reads, while its scratch stays within a core's cache.
const flushEntries = 1 << 15

// flush builds the postings of the pending slots (those from
// ix.flushed): a counting sort of their arena entries by term puts each
// term's new postings side by side, in slot order, and each term takes
// them in one append. Its df grows by as many.
func (ix *Index) flush() {
	if ix.flushed == len(ix.slots) {
		return
	}
	pending := ix.arena[ix.slots[ix.flushed].off:]
	fs := flushScratches.Get().(*flushScratch)
	defer flushScratches.Put(fs)
	if n := ix.vocab.size(); len(fs.at) < n {
		fs.at = make([]int32, n+n/4)
	}
	at, touched := fs.at, fs.touched[:0]
	for _, e := range pending {
		if at[e.tid] == 0 {
			touched = append(touched, e.tid)
		}
		at[e.tid]++
	}
	// at[t] becomes where term t's run starts, and after the scatter
	// where it ends.
	off := int32(0)
	for _, t := range touched {
		off, at[t] = off+at[t], off
	}
	sorted := slices.Grow(fs.sorted[:0], len(pending))[:len(pending)]
	for s := ix.flushed; s < len(ix.slots); s++ {
		sl := ix.slots[s]
		for _, e := range ix.arena[sl.off : sl.off+int(sl.n)] {
			sorted[at[e.tid]] = posting{slot: int32(s), tf: e.tf}
			at[e.tid]++
		}
	}
	start := int32(0)
	for _, t := range touched {
		run := sorted[start:at[t]]
		tm := &ix.termTab[ix.localTerm(t)]
		if tm.postings == nil && len(run) <= firstBlockLen {
			tm.postings = ix.firstBlock()
		}
		tm.postings = append(tm.postings, run...)
		tm.df += len(run)
		start, at[t] = at[t], 0
	}
	ix.flushed = len(ix.slots)
	fs.touched, fs.sorted = touched[:0], sorted[:0]
}

// localTerm returns the place in termTab of the term numbered tid,
// making one for it if the index has none.
func (ix *Index) localTerm(tid int32) int32 {
	if at, ok := ix.local[tid]; ok {
		return at
	}
	var at int32
	if n := len(ix.freeTerms); n > 0 {
		at = ix.freeTerms[n-1]
		ix.freeTerms = ix.freeTerms[:n-1]
		ix.termTab[at] = term{tid: tid}
	} else {
		at = int32(len(ix.termTab))
		ix.termTab = append(ix.termTab, term{tid: tid})
	}
	ix.local[tid] = at
	return at
}

// flushScratch is flush's working space, shared by every index (one
// index per partition of a store would otherwise each keep its own).
type flushScratch struct {
	at      []int32 // by term number (Vocab); all zero between flushes
	touched []int32
	sorted  []posting
}

var flushScratches = sync.Pool{New: func() any { return new(flushScratch) }}

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
