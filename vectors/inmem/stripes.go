package inmem

import (
	"math"
	"sync/atomic"
	"time"
)

// stripes is one scan's blocks and what became of each. Workers claim
// blocks in turn and publish each block's bounds; the first copy of a
// block published is the one merged, so a block may be bounded twice and
// the answer is the same (a block's bounds depend on its rows and on
// nothing else).
//
// The calling goroutine does not wait long for a block another worker
// claimed: on a busy machine the scheduler can stop that worker for a
// whole time slice, many times a block's work, and the search would wait
// for it — the slow tail of the latencies. Once the caller has no block
// left to claim, it waits for a claimed block about as long as a block
// takes it, then bounds the block itself.
type stripes struct {
	p        *partition
	q        *query
	f        *filterBits
	k        int
	admitted []int32
	rows     int
	start    time.Time

	next    atomic.Int64
	claimed []atomic.Int64 // when each block was claimed, in ns after start, + 1 (0: not yet)
	out     []atomic.Pointer[bounded]
	left    atomic.Int64  // blocks not yet published
	done    chan struct{} // closed when left reaches 0
	tau     sharedTau
	// holders counts the workers that may still read the partition, the
	// caller included; the last to leave runs after.
	holders atomic.Int32
	after   func()
}

// leave is a worker's (or the caller's) end of reading the partition.
func (st *stripes) leave() {
	if st.holders.Add(-1) == 0 && st.after != nil {
		st.after()
	}
}

func newStripes(p *partition, q *query, f *filterBits, k int, admitted []int32, blocks int) *stripes {
	st := &stripes{
		p: p, q: q, f: f, k: k, admitted: admitted, rows: p.len(), start: time.Now(),
		claimed: make([]atomic.Int64, blocks), out: make([]atomic.Pointer[bounded], blocks),
		done: make(chan struct{}),
	}
	st.left.Store(int64(blocks))
	st.tau.bits.Store(math.Float32bits(float32(math.Inf(-1))))
	return st
}

// scratch is a worker's filtering and scoring space, reused from block to
// block.
type scratch struct{ rows, dots []int32 }

// work bounds blocks until none is left to claim and returns the longest
// one took it (0 when it claimed none).
func (st *stripes) work() (longest time.Duration) {
	var sc scratch
	for {
		i := int(st.next.Add(1) - 1)
		if i >= len(st.out) {
			return longest
		}
		t0 := time.Now()
		st.claimed[i].Store(int64(t0.Sub(st.start)) + 1)
		st.bound(i, &sc)
		longest = max(longest, time.Since(t0))
	}
}

// bound bounds block i and publishes it unless a copy is published.
func (st *stripes) bound(i int, sc *scratch) {
	blocks := len(st.out)
	b := newBounded(st.k, st.tau.load(), sc.rows, sc.dots)
	b.block(st.p, st.q, st.f, st.rows*i/blocks, st.rows*(i+1)/blocks, st.admitted, &st.tau)
	sc.rows, sc.dots = b.rows[:0], b.dots
	b.rows, b.dots = nil, nil // the scratch is the worker's, not the block's
	if st.out[i].CompareAndSwap(nil, b) && st.left.Add(-1) == 0 {
		close(st.done)
	}
}

// finish is the calling goroutine's part: it works as one of the workers,
// then sees every block published, bounding itself any block another
// worker claimed and has not published within the caller's own longest
// block time of its claim (twice that, at least 50 µs, so a worker that
// is running is rarely duplicated).
func (st *stripes) finish() {
	own := st.work()
	if st.left.Load() == 0 {
		return
	}
	grace := max(2*own, 50*time.Microsecond)
	var sc scratch
	var timer *time.Timer
	for i := range st.out {
		if st.out[i].Load() != nil {
			continue
		}
		wait := grace
		if c := st.claimed[i].Load(); c > 0 {
			wait -= time.Since(st.start) - time.Duration(c-1)
		}
		if wait > 0 {
			if timer == nil {
				timer = time.NewTimer(wait)
				defer timer.Stop()
			} else {
				timer.Reset(wait)
			}
			select {
			case <-st.done:
				return
			case <-timer.C:
			}
		}
		if st.out[i].Load() == nil {
			st.bound(i, &sc)
		}
	}
}

// top merges the published blocks in block order and rescores their
// candidates that reach the merged threshold: the exact top k.
func (st *stripes) top() topK {
	var lows lowerK
	lows.k = st.k
	for i := range st.out {
		for _, l := range st.out[i].Load().lows.h {
			lows.offer(l)
		}
	}
	tau := lows.threshold()
	p, q := st.p, st.q
	top := topK{k: st.k, meta: p.meta}
	for i := range st.out {
		for _, c := range st.out[i].Load().cands {
			if c.score >= tau {
				row := int(c.row)
				top.offer(c.row, clamp(dot(q.unit, p.vector(row))*p.inv[row]))
			}
		}
	}
	return top
}

// sharedTau is the best threshold (k-th largest lower bound) any block of
// a scan has reached: every block's rows are among the scan's, so a row
// whose upper bound is under it cannot be in the top k either.
type sharedTau struct{ bits atomic.Uint32 }

func (t *sharedTau) load() float32 {
	if t == nil {
		return float32(math.Inf(-1))
	}
	return math.Float32frombits(t.bits.Load())
}

// raise lifts the threshold to x if x is above it.
func (t *sharedTau) raise(x float32) {
	if t == nil {
		return
	}
	for {
		old := t.bits.Load()
		if x <= math.Float32frombits(old) || t.bits.CompareAndSwap(old, math.Float32bits(x)) {
			return
		}
	}
}
