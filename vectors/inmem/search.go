package inmem

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"slices"
	"strings"

	"github.com/cmem/cmem/vectors"
)

// Search returns the k fragments of f's partition inside f's allowed sets
// with the highest cosine similarity to vector, best first, ties broken by
// ascending ID. The scan is exact.
func (s *Store) Search(ctx context.Context, vector []float32, f vectors.Filter, k int) ([]vectors.Hit, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if len(vector) != s.dims {
		return nil, fmt.Errorf("inmem: query has %d dimensions, store has %d: %w",
			len(vector), s.dims, vectors.ErrDimension)
	}
	if !finite(vector) {
		return nil, fmt.Errorf("inmem: query vector has a NaN or infinite value")
	}
	s.mu.RLock()
	release := s.mu.RUnlock
	defer func() { release() }()
	if s.closed {
		return nil, ErrClosed
	}
	p, ok := s.parts[keyOf(f.Tier, f.User)]
	if !ok || k <= 0 {
		return []vectors.Hit{}, nil
	}
	fb := s.filterBits(p, f)
	q := newQuery(vector)
	top, leave := scan(p, &q, &fb, k, s.mu.RUnlock)
	release = leave
	hits := make([]vectors.Hit, 0, len(top.c))
	for _, c := range top.sorted() {
		hits = append(hits, vectors.Hit{Fragment: p.fragment(int(c.row)), Score: c.score})
	}
	return hits, nil
}

// filterBits is f's allowed sets in the form p's rows are checked against.
func (s *Store) filterBits(p *partition, f vectors.Filter) filterBits {
	return filterBits{
		slots: allowedBits(s.agents.ids(f.AllowedAgents), s.res.ids(f.AllowedResources), s.agents.len(), s.res.len()),
		a:     s.agents.bitsOf(f.AllowedAgents, p.aWords),
		r:     s.res.bitsOf(f.AllowedResources, p.rWords),
	}
}

// parallelRows is the partition size from which a search is split across
// the CPUs: below it, starting goroutines costs more than it saves.
const parallelRows = 16384

// scan is the exact top-k of the rows of p inside the allowed sets, in two
// passes. The first reads only the int8 codes (quant.go): each admissible
// row gets an interval its exact cosine lies in, the k-th best lower bound
// so far is a threshold, and a row whose upper bound is under it cannot be
// in the top k; the others are kept as candidates. The second rescores the
// candidates whose upper bound reaches the final threshold on the float32
// vectors. Every row of the exact top k is among them (its upper bound is
// at least its score, which is at least the k-th best lower bound), so the
// answer is the exact one, ties by ID included.
//
// A large partition is cut into blocks (stripes.go) that one worker per
// CPU claims in turn, each block bounded on its own and merged in block
// order before the rescoring.
//
// after is run once the search is done with the partition and every
// worker has stopped: the caller's read lock is handed over, as a worker
// the caller did not wait for may still be reading. The caller calls the
// returned leave when it is done reading; the last to stop runs after.
func scan(p *partition, q *query, f *filterBits, k int, after func()) (topK, func()) {
	return scanRows(p, q, f, k, nil, nil, after)
}

// scanRows is scan over the rows listed in admitted (ascending, exactly
// those f admits) when it is not nil: a hybrid search that resolved its
// filter to rows for the lexical side hands them over rather than have
// the workers test every row again. first, when not nil, is run by the
// calling goroutine before it joins the workers: other work of the same
// search, overlapped with the scan. after and the returned leave are
// scan's.
func scanRows(p *partition, q *query, f *filterBits, k int, admitted []int32, first, after func()) (topK, func()) {
	rows := p.len()
	workers, blocks := 1, 1
	if rows >= parallelRows {
		workers = min(runtime.GOMAXPROCS(0), rows/(parallelRows/2))
		blocks = (rows + blockRows - 1) / blockRows
	}
	st := newStripes(p, q, f, k, admitted, blocks)
	st.after = after
	st.holders.Store(int32(workers))
	for range workers - 1 {
		go func() {
			st.work()
			st.leave()
		}()
	}
	if first != nil {
		first()
	}
	st.finish()
	top := st.top()
	return top, st.leave
}

// blockRows is the size of the blocks the workers of a large scan claim:
// small enough that a late worker leaves little to the others, large
// enough that claiming one costs nothing beside scanning it.
const blockRows = 8192

// bounded is one worker's first pass: the k best lower bounds and the rows
// whose upper bound (in score) reached the threshold when they were seen.
type bounded struct {
	lows  lowerK
	cands []cand
	tau   float32 // lows' threshold
	rows  []int32
	dots  []int32
}

// newBounded returns an empty bounded whose threshold starts at tau (a
// valid threshold known already, or −∞), filtering into rows and scoring
// into dots (chunkRows long; nil for new ones).
func newBounded(k int, tau float32, rows, dots []int32) *bounded {
	if rows == nil {
		rows, dots = make([]int32, 0, chunkRows), make([]int32, chunkRows)
	}
	return &bounded{lows: lowerK{k: k}, cands: make([]cand, 0, 4*k), tau: tau, rows: rows, dots: dots}
}

// filterBits is a filter's allowed sets as slot bits and as bitsets.
type filterBits struct {
	slots []uint32
	a, r  []uint64
}

// allowedBits sets the slot bit of every allowed agent and resource, and
// bit 0 (an unused slot); it covers every id interned so far.
func allowedBits(agents, res []int, nAgents, nRes int) []uint32 {
	top := max(resourceBit(nRes), agentBit(nAgents))
	out := make([]uint32, top/32+1)
	out[0] = 1 << unusedSlot
	for _, n := range agents {
		b := agentBit(n)
		out[b>>5] |= 1 << (b & 31)
	}
	for _, n := range res {
		b := resourceBit(n)
		out[b>>5] |= 1 << (b & 31)
	}
	return out
}

// chunkRows is how many rows a worker filters before it scores the
// admissible ones in one call of the prefetching kernel.
const chunkRows = 512

// block bounds the rows in [from, to) into b. shared is the best
// threshold any block of the scan has reached: b prunes with it when it is
// above its own, and raises it with its own.
func (b *bounded) block(p *partition, q *query, f *filterBits, from, to int, admitted []int32, shared *sharedTau) {
	next, _ := slices.BinarySearch(admitted, int32(from)) // admitted's first row in the block
	for start := from; start < to; start += chunkRows {
		if t := shared.load(); t > b.tau {
			b.tau = t
		}
		rows := b.rows[:0]
		end := min(start+chunkRows, to)
		switch {
		case admitted != nil:
			i := next
			for next < len(admitted) && admitted[next] < int32(end) {
				next++
			}
			rows = admitted[i:next]
		case p.overflows == 0:
			rows = admitRows(p, f.slots, start, end, rows)
		default:
			for row := start; row < end; row++ {
				if p.admits(row, f.slots, f.a, f.r) {
					rows = append(rows, int32(row))
				}
			}
		}
		dots := b.dots
		dotRows(q, p.codes, rows, dots)
		for i, r := range rows {
			lo, hi := q.bounds(p, int(r), dots[i])
			if hi < b.tau {
				continue
			}
			b.cands = append(b.cands, cand{row: r, score: hi})
			if b.lows.offer(lo) {
				if t := b.lows.threshold(); t > b.tau {
					b.tau = t
					shared.raise(t)
				}
			}
		}
	}
}

// lowerK keeps the k largest lower bounds in a min-heap; its root is the
// threshold once k are kept.
type lowerK struct {
	k int
	h []float32
}

// offer keeps x if it is among the k largest so far and reports whether
// the threshold may have risen.
func (l *lowerK) offer(x float32) bool {
	if len(l.h) < l.k {
		l.h = append(l.h, x)
		for i := len(l.h) - 1; i > 0 && l.h[(i-1)/2] > l.h[i]; i = (i - 1) / 2 {
			l.h[i], l.h[(i-1)/2] = l.h[(i-1)/2], l.h[i]
		}
		return len(l.h) == l.k
	}
	if x <= l.h[0] {
		return false
	}
	l.h[0] = x
	for i := 0; ; {
		least, left, right := i, 2*i+1, 2*i+2
		if left < len(l.h) && l.h[left] < l.h[least] {
			least = left
		}
		if right < len(l.h) && l.h[right] < l.h[least] {
			least = right
		}
		if least == i {
			return true
		}
		l.h[i], l.h[least] = l.h[least], l.h[i]
		i = least
	}
}

// threshold is the k-th largest lower bound, or −∞ while fewer than k rows
// were seen (then every row is a candidate).
func (l *lowerK) threshold() float32 {
	if len(l.h) < l.k {
		return float32(math.Inf(-1))
	}
	return l.h[0]
}

// dotGeneric is the portable dot product, unrolled four ways so that the
// independent accumulators let the CPU overlap the multiply-adds; amd64
// uses the AVX2 kernel instead (dot_amd64.go).
func dotGeneric(a, b []float32) float32 {
	b = b[:len(a)]
	var s0, s1, s2, s3 float32
	i := 0
	for ; i+4 <= len(a); i += 4 {
		s0 += a[i] * b[i]
		s1 += a[i+1] * b[i+1]
		s2 += a[i+2] * b[i+2]
		s3 += a[i+3] * b[i+3]
	}
	for ; i < len(a); i++ {
		s0 += a[i] * b[i]
	}
	return (s0 + s1) + (s2 + s3)
}

// clamp keeps rounding from reporting a cosine just outside [-1, 1].
func clamp(x float32) float32 {
	return min(max(x, -1), 1)
}

type cand struct {
	row   int32
	score float32
}

// topK is a bounded min-heap whose root is the worst kept candidate, so
// most rows are rejected by one comparison against the root.
type topK struct {
	k    int
	meta []vectors.Fragment
	c    []cand
}

// worse orders candidates by score, then by descending ID, so that the
// smaller ID wins a tie.
func (t *topK) worse(a, b cand) bool {
	if a.score != b.score {
		return a.score < b.score
	}
	return t.meta[a.row].ID > t.meta[b.row].ID
}

func (t *topK) offer(row int32, score float32) {
	c := cand{row: row, score: score}
	if len(t.c) < t.k {
		t.c = append(t.c, c)
		t.up(len(t.c) - 1)
		return
	}
	if score < t.c[0].score || !t.worse(t.c[0], c) {
		return
	}
	t.c[0] = c
	t.down(0)
}

func (t *topK) up(i int) {
	for i > 0 {
		parent := (i - 1) / 2
		if !t.worse(t.c[i], t.c[parent]) {
			return
		}
		t.c[i], t.c[parent] = t.c[parent], t.c[i]
		i = parent
	}
}

func (t *topK) down(i int) {
	for {
		l, r, least := 2*i+1, 2*i+2, i
		if l < len(t.c) && t.worse(t.c[l], t.c[least]) {
			least = l
		}
		if r < len(t.c) && t.worse(t.c[r], t.c[least]) {
			least = r
		}
		if least == i {
			return
		}
		t.c[i], t.c[least] = t.c[least], t.c[i]
		i = least
	}
}

// sorted returns the kept candidates best first.
func (t *topK) sorted() []cand {
	out := slices.Clone(t.c)
	slices.SortFunc(out, func(a, b cand) int {
		if a.score != b.score {
			if a.score > b.score {
				return -1
			}
			return 1
		}
		return strings.Compare(t.meta[a.row].ID, t.meta[b.row].ID)
	})
	return out
}
