package inmem

import (
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
)

// admitted returns the rows of p that fb admits, ascending, and their text
// numbers (rowLex.fid) as a bitset, with their number of chunks and
// tokens: the collection a hybrid search's BM25 statistics are taken
// over, resolved once per search so the text index tests a posting with
// one bit and the vector scan reads the rows rather than test each again.
// The rows are in a buffer the caller gives back to rowBufs.
//
// Both sides of the search wait for it, so a large partition is resolved
// in blocks that the CPUs claim as scan's are: on an idle machine it
// takes its share of the time, and a worker started late finds nothing
// left to wait for.
func (s *Store) admitted(p *partition, fb *filterBits) (rows []int32, bits []uint64, chunks, toks int) {
	n := p.len()
	words := (len(s.fids.at) + 63) / 64
	buf := rowBufs.Get().(*[]int32)
	rows = slices.Grow((*buf)[:0], n)[:n]
	workers, blocks := 1, 1
	if n >= parallelRows {
		workers = min(runtime.GOMAXPROCS(0), n/(parallelRows/2))
		blocks = (n + blockRows - 1) / blockRows
	}
	got := make([]int, blocks) // rows admitted by block, written from its first row on
	var (
		next  atomic.Int64
		done  sync.WaitGroup
		mu    sync.Mutex
		parts []*admittedPart
	)
	done.Add(blocks)
	work := func() {
		var pt *admittedPart
		for {
			i := int(next.Add(1) - 1)
			if i >= blocks {
				return
			}
			if pt == nil {
				pt = &admittedPart{bits: make([]uint64, words)}
				mu.Lock()
				parts = append(parts, pt)
				mu.Unlock()
			}
			from, to := n*i/blocks, n*(i+1)/blocks
			got[i] = len(pt.add(p, fb, from, to, rows[from:from:to]))
			done.Done()
		}
	}
	for range workers - 1 {
		go work()
	}
	work()
	done.Wait()
	mu.Lock()
	defer mu.Unlock()
	bits = parts[0].bits
	for _, pt := range parts {
		if pt != parts[0] {
			for w, b := range pt.bits {
				bits[w] |= b
			}
		}
		chunks, toks = chunks+pt.chunks, toks+pt.toks
	}
	w := 0
	for i, c := range got {
		from := n * i / blocks
		w += copy(rows[w:], rows[from:from+c])
	}
	return rows[:w], bits, chunks, toks
}

// admittedPart is one worker's share of admitted.
type admittedPart struct {
	bits         []uint64
	chunks, toks int
}

// add appends to rows (with room for to-from) the rows in [from, to) that
// fb admits, and counts them in pt.
func (pt *admittedPart) add(p *partition, fb *filterBits, from, to int, rows []int32) []int32 {
	for start := from; start < to; start += chunkRows {
		end := min(start+chunkRows, to)
		first := len(rows)
		if p.overflows == 0 {
			rows = admitRows(p, fb.slots, start, end, rows)
		} else {
			for row := start; row < end; row++ {
				if p.admits(row, fb.slots, fb.a, fb.r) {
					rows = append(rows, int32(row))
				}
			}
		}
		for _, r := range rows[first:] {
			lx := &p.lex[r]
			pt.bits[lx.fid>>6] |= 1 << (lx.fid & 63)
			pt.chunks += int(lx.chunks)
			pt.toks += int(lx.toks)
		}
	}
	return rows
}

// rowBufs holds admitted's row lists between searches: a 100k-row
// partition's is 400 kB, too much to allocate per search.
var rowBufs = sync.Pool{New: func() any { return new([]int32) }}
