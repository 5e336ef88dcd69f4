package textindex

import (
	"math"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// pieceLen is the most postings one keeping task of a DocSearch walks:
// small enough that a goroutine waiting at the barrier after the keeping
// waits for little, large enough that claiming one costs nothing beside
// it.
const pieceLen = 4096

// DocSearch is SearchDocs cut into tasks that several goroutines may run
// at once, so that a caller whose other goroutines would sit idle (the
// hybrid view's vector scan, once its blocks are claimed) can lend them
// to the lexical half. Its hits are SearchDocs' exactly, scores to the
// bit and order included:
//
//   - the keeping tasks cut each term's postings into pieces and keep the
//     admitted ones of each piece, split by slot into a low and a high
//     half; df is the sum of a term's pieces' counts;
//   - once every piece is kept, two scoring tasks, one per slot half,
//     each add the terms' scores in term order into the slots of its
//     half (disjoint, so a slot's sum is SearchDocs' sum, term by term)
//     and take its half's best k;
//   - Hits merges the two halves' best k by the same order, a total one
//     for AddDoc's documents when tie is.
//
// Every task is claimed once; a task whose claimer is slow to publish may
// be run again by Rescue into buffers of its own, the first result
// published being the one used (a task's result depends on its inputs
// only). The index stays read-locked from StartSearchDocs to Release,
// which must wait until no goroutine runs a task.
type DocSearch struct {
	ix         *Index
	unlock     func()
	sc         *scratch
	k, n       int
	avg, k1, b float64
	tags       []uint64
	tie        func(a, b uint32) int
	mid        int32 // slots below it are the low half
	terms      []splitTerm
	pieces     []piece
	halves     [2]half
	buf        []posting // the pieces' kept postings
	tasks      int64     // pieces and the two halves; 0 for a search that finds nothing
	start      time.Time
	claimed    []int64 // when each task was claimed, in ns after start, + 1 (0: not yet)

	claim   atomic.Int64 // the next task: pieces first, then the halves
	kept    atomic.Int64 // pieces published
	done    atomic.Int64 // tasks published
	longest atomic.Int64 // the longest a task took, in ns
}

// splitTerm is a term's postings and its pieces, d.pieces[first:end].
type splitTerm struct {
	first, end int
	postings   []posting
}

// piece is a run of one term's postings and, once published in res,
// those it admits in the low and the high slot half. own is the
// claimer's result, in the search's buffer; a piece run again by Rescue
// publishes a result of its own if it is first.
type piece struct {
	postings []posting
	out      []posting // own's room, as long as postings
	own      kept
	res      atomic.Pointer[kept]
}

// kept is a piece's admitted postings by slot half.
type kept struct{ lo, hi []posting }

// half is a scoring task's slots touched and best k (own), and the best
// k published (own's, or Rescue's if it was first).
type half struct {
	touched []int32
	own     []scored
	res     atomic.Pointer[[]scored]
}

var docSearches = sync.Pool{New: func() any { return new(DocSearch) }}

// StartSearchDocs plans SearchDocs(query, k, tags, n, totalLen, tie) as
// tasks for Step and locks the index for reading until Release. The
// caller runs Step (and may have other goroutines run it) until Finished,
// then reads Hits, then calls Release once no goroutine will call Step
// again.
func (ix *Index) StartSearchDocs(query string, k int, tags []uint64, n, totalLen int, tie func(a, b uint32) int) *DocSearch {
	d := docSearches.Get().(*DocSearch)
	d.ix, d.k, d.n, d.tags, d.tie = ix, k, n, tags, tie
	d.claim.Store(0)
	d.kept.Store(0)
	d.done.Store(0)
	d.tasks = 0
	if k <= 0 || n <= 0 {
		return d
	}
	terms := ix.Tokens(query)
	d.unlock = ix.lockForSearch()
	d.sc = ix.getScratch()
	d.avg, d.k1, d.b = avgLen(totalLen, n), ix.cfg.K1, ix.cfg.B
	d.mid = int32(len(ix.slots) / 2)
	d.terms = d.terms[:0]
	np, total := 0, 0
	for _, t := range d.sc.distinct(terms) {
		if tm := ix.lookup(t); tm != nil {
			l := len(tm.postings)
			d.terms = append(d.terms, splitTerm{first: np, end: np + (l+pieceLen-1)/pieceLen, postings: tm.postings})
			np, total = np+(l+pieceLen-1)/pieceLen, total+l
		}
	}
	// Pieces hold atomics, so they are set in place, never copied.
	if cap(d.pieces) < np {
		d.pieces = make([]piece, np)
	}
	d.pieces = d.pieces[:np]
	d.buf = slices.Grow(d.buf[:0], total)[:total]
	at := 0
	for _, t := range d.terms {
		for j := t.first; j < t.end; j++ {
			from := (j - t.first) * pieceLen
			pc := &d.pieces[j]
			pc.postings = t.postings[from:min(from+pieceLen, len(t.postings))]
			l := len(pc.postings)
			pc.out, pc.own = d.buf[at:at+l:at+l], kept{}
			pc.res.Store(nil)
			at += l
		}
	}
	for i := range d.halves {
		d.halves[i].res.Store(nil)
	}
	d.tasks = int64(np + 2)
	d.claimed = slices.Grow(d.claimed[:0], int(d.tasks))[:d.tasks]
	clear(d.claimed)
	d.longest.Store(0)
	d.start = time.Now()
	return d
}

// Step claims and runs one task if one may be claimed and reports
// whether it ran one, and whether any task is left to claim (a scoring
// task waits for every piece to be kept: then Step runs nothing and
// reports more).
func (d *DocSearch) Step() (did, more bool) {
	np := int64(len(d.pieces))
	var i int64
	for {
		i = d.claim.Load()
		if i >= d.tasks {
			return false, false
		}
		if i >= np && d.kept.Load() < np {
			return false, true
		}
		if d.claim.CompareAndSwap(i, i+1) {
			break
		}
	}
	t0 := time.Now()
	atomic.StoreInt64(&d.claimed[i], int64(t0.Sub(d.start))+1)
	d.run(int(i), false)
	if took := int64(time.Since(t0)); took > d.longest.Load() {
		d.longest.Store(took) // a race between two may keep the shorter: a grace only
	}
	return true, i+1 < d.tasks
}

// run runs task i and publishes its result unless one is published;
// again marks a run of a task another goroutine claimed, which must not
// write to that goroutine's buffers.
func (d *DocSearch) run(i int, again bool) {
	if np := len(d.pieces); i < np {
		pc := &d.pieces[i]
		r, out := &pc.own, pc.out
		if again {
			r, out = &kept{}, make([]posting, len(pc.postings))
		}
		r.lo, r.hi = keepSplit(pc.postings, d.ix.hot, d.tags, d.mid, out)
		if pc.res.CompareAndSwap(nil, r) {
			d.kept.Add(1)
			d.done.Add(1)
		}
		return
	}
	h := i - len(d.pieces)
	hf := &d.halves[h]
	if !again {
		hf.touched, hf.own = d.score(h, d.sc.scores, hf.touched[:0], hf.own[:0])
		if hf.res.CompareAndSwap(nil, &hf.own) {
			d.done.Add(1)
		}
		return
	}
	sc := d.ix.getScratch() // a scores array of its own: the claimer may still be adding to its
	var top []scored
	sc.touched, top = d.score(h, sc.scores, sc.touched[:0], make([]scored, 0, d.k+1))
	d.ix.scratch.Put(sc)
	if hf.res.CompareAndSwap(nil, &top) {
		d.done.Add(1)
	}
}

// Rescue runs, on the calling goroutine, a task another goroutine
// claimed and has not published for twice the longest any task took (50
// µs at least), as a goroutine the scheduler stopped may not run again
// for a whole time slice; it reports whether it ran one. A scoring task
// is rescued only once every piece is kept.
func (d *DocSearch) Rescue() bool {
	grace := min(2*d.longest.Load(), int64(50*time.Microsecond))
	now := int64(time.Since(d.start))
	np := len(d.pieces)
	from, to := 0, np
	if d.kept.Load() == int64(np) {
		from, to = np, np+2
	}
	for i := from; i < to; i++ {
		c := atomic.LoadInt64(&d.claimed[i])
		if c == 0 || now-(c-1) < grace || d.published(i) {
			continue
		}
		d.run(i, true)
		return true
	}
	return false
}

// published reports whether task i's result is published.
func (d *DocSearch) published(i int) bool {
	if i < len(d.pieces) {
		return d.pieces[i].res.Load() != nil
	}
	return d.halves[i-len(d.pieces)].res.Load() != nil
}

// Finished reports whether every task has run.
func (d *DocSearch) Finished() bool { return d.done.Load() == d.tasks }

// keepSplit writes the postings whose slots are alive and tagged in tags
// to out, as long as postings: those of slots under mid from its front,
// in order, the others from its back, in reverse order (a term holds a
// slot once, so the order within a term changes no sum), and returns the
// two runs. Like gate.keep it does not branch on a verdict: each posting
// is written at both ends of the gap between the runs, which is never
// empty before it, and counted in at most one.
func keepSplit(postings []posting, hots []hot, tags []uint64, mid int32, out []posting) (lo, hi []posting) {
	out = out[:len(postings)]
	last, nlo, nhi := len(postings)-1, 0, 0
	for _, p := range postings {
		h := hots[p.slot]
		w, ok := int(h.tag>>6), uint64(0)
		if w < len(tags) {
			ok = tags[w] >> (h.tag & 63) & 1
		}
		ok &= uint64(^uint32(h.len) >> 31)         // alive: len ≥ 0
		high := uint64(uint32(mid-1-p.slot) >> 31) // slot ≥ mid
		out[nlo], out[last-nhi] = p, p
		nlo += int(ok &^ high)
		nhi += int(ok & high)
	}
	return out[:nlo], out[len(out)-nhi:]
}

// score is the scoring task of half h: BM25 over the kept postings of its
// slots, term by term, added into scores, and the half's best k into top.
// It returns touched and top.
func (d *DocSearch) score(h int, scores []float64, touched []int32, top []scored) ([]int32, []scored) {
	for _, t := range d.terms {
		df := 0
		for j := t.first; j < t.end; j++ {
			r := d.pieces[j].res.Load()
			df += len(r.lo) + len(r.hi)
		}
		if df == 0 {
			continue
		}
		idf := math.Log(1 + (float64(d.n)-float64(df)+0.5)/(float64(df)+0.5))
		for j := t.first; j < t.end; j++ {
			r := d.pieces[j].res.Load()
			kept := r.lo
			if h == 1 {
				kept = r.hi
			}
			touched = addScores(scores, touched, kept, d.ix.hot, idf, d.k1, d.b, d.avg)
		}
	}
	return touched[:0], d.ix.topIn(scores, touched, d.k, nil, d.tie, top)
}

// Hits is the search's result, SearchDocs' own; call it once Finished.
func (d *DocSearch) Hits() []DocHit {
	if d.tasks == 0 {
		return nil
	}
	a, b := *d.halves[0].res.Load(), *d.halves[1].res.Load()
	out := make([]DocHit, 0, min(d.k, len(a)+len(b)))
	for len(out) < d.k && len(a)+len(b) > 0 {
		var s scored
		if len(b) == 0 || len(a) > 0 && d.ix.better(a[0], b[0], d.tie) {
			s, a = a[0], a[1:]
		} else {
			s, b = b[0], b[1:]
		}
		out = append(out, DocHit{Doc: d.ix.slots[s.slot].doc, Score: s.score})
	}
	return out
}

// Release unlocks the index and gives d back for another search; no
// goroutine may use d after.
func (d *DocSearch) Release() {
	if d.tasks > 0 {
		d.ix.scratch.Put(d.sc)
		d.unlock()
	}
	for i := range d.pieces { // the postings are the index's: not kept alive by the pool
		d.pieces[i].postings, d.pieces[i].out, d.pieces[i].own = nil, nil, kept{}
		d.pieces[i].res.Store(nil)
	}
	clear(d.terms)
	d.ix, d.sc, d.unlock, d.tags, d.tie = nil, nil, nil, nil, nil
	docSearches.Put(d)
}
