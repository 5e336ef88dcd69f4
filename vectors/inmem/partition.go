package inmem

import (
	"math"
	"slices"

	"github.com/cmem/cmem/vectors"
)

// partKey names a partition: the shared tier is one partition, the private
// tier one per user. Any other tier string is its own partition, so an
// unknown tier simply matches nothing that was not written to it.
type partKey struct {
	tier, user string
}

const privateTier = "private"

func keyOf(tier, user string) partKey {
	if tier != privateTier {
		user = ""
	}
	return partKey{tier: tier, user: user}
}

// partition holds its rows in parallel, densely packed slices; removal
// swaps the last row in, so a scan never meets a hole.
type partition struct {
	dims           int
	aWords, rWords int
	meta           []vectors.Fragment // without Vector
	vecs           []float32          // row i is vecs[i*dims : (i+1)*dims]
	inv            []float32          // 1/|v|, or 0 for a zero vector
	agents         []uint64           // row i is agents[i*aWords : (i+1)*aWords]
	res            []uint64           // row i is res[i*rWords : (i+1)*rWords]
}

func newPartition(dims, aWords, rWords int) *partition {
	return &partition{dims: dims, aWords: aWords, rWords: rWords}
}

func (p *partition) len() int { return len(p.meta) }

func (p *partition) vector(row int) []float32 {
	return p.vecs[row*p.dims : (row+1)*p.dims]
}

// add appends f and returns its row. Slices are copied: the caller keeps
// ownership of f.
func (p *partition) add(f *vectors.Fragment, agents, res []int) int {
	m := *f
	m.Vector = nil
	m.Agents = slices.Clone(f.Agents)
	m.Resources = slices.Clone(f.Resources)
	p.meta = append(p.meta, m)
	p.vecs = append(p.vecs, f.Vector...)
	p.inv = append(p.inv, invNorm(f.Vector))
	p.agents = appendBits(p.agents, p.aWords, agents)
	p.res = appendBits(p.res, p.rWords, res)
	return len(p.meta) - 1
}

// remove deletes row by moving the last row into it. It returns the id of
// the moved fragment, if one moved.
func (p *partition) remove(row int) (string, bool) {
	last := len(p.meta) - 1
	moved := row != last
	if moved {
		p.meta[row] = p.meta[last]
		copy(p.vector(row), p.vector(last))
		p.inv[row] = p.inv[last]
		copy(p.agents[row*p.aWords:(row+1)*p.aWords], p.agents[last*p.aWords:])
		copy(p.res[row*p.rWords:(row+1)*p.rWords], p.res[last*p.rWords:])
	}
	p.meta[last] = vectors.Fragment{} // drop references for the GC
	p.meta = p.meta[:last]
	p.vecs = p.vecs[:last*p.dims]
	p.inv = p.inv[:last]
	p.agents = p.agents[:last*p.aWords]
	p.res = p.res[:last*p.rWords]
	if moved {
		return p.meta[row].ID, true
	}
	return "", false
}

// fragment returns a copy of row's fragment without its vector.
func (p *partition) fragment(row int) vectors.Fragment {
	f := p.meta[row]
	f.Agents = slices.Clone(f.Agents)
	f.Resources = slices.Clone(f.Resources)
	return f
}

func invNorm(v []float32) float32 {
	var ss float64
	for _, x := range v {
		ss += float64(x) * float64(x)
	}
	if ss == 0 {
		return 0
	}
	return float32(1 / math.Sqrt(ss))
}

func wordsFor(n int) int { return max(1, (n+63)/64) }

func appendBits(dst []uint64, words int, bits []int) []uint64 {
	start := len(dst)
	dst = append(dst, make([]uint64, words)...)
	for _, b := range bits {
		dst[start+b/64] |= 1 << (b % 64)
	}
	return dst
}

func restripe(bits []uint64, from, to int) []uint64 {
	rows := len(bits) / from
	out := make([]uint64, rows*to)
	for r := range rows {
		copy(out[r*to:], bits[r*from:(r+1)*from])
	}
	return out
}

// subset reports whether the row's bitset needs nothing outside allowed;
// both have the same stride.
func subset(row, allowed []uint64) bool {
	for i, w := range row {
		if w&^allowed[i] != 0 {
			return false
		}
	}
	return true
}

// interner maps ids to dense small ints, for the lifetime of the store (or
// until Reset): ids are registrations, so the universe only grows.
type interner struct {
	idx map[string]int
}

func newInterner() interner { return interner{idx: map[string]int{}} }

func (in *interner) len() int { return len(in.idx) }

func (in *interner) internAll(ids []string) []int {
	out := make([]int, len(ids))
	for i, id := range ids {
		n, ok := in.idx[id]
		if !ok {
			n = len(in.idx)
			in.idx[id] = n
		}
		out[i] = n
	}
	return out
}

// bitsOf returns the bitset of the ids that are interned; ids never seen
// cannot be needed by any fragment, so they are dropped.
func (in *interner) bitsOf(ids []string, words int) []uint64 {
	out := make([]uint64, words)
	for _, id := range ids {
		if n, ok := in.idx[id]; ok {
			out[n/64] |= 1 << (n % 64)
		}
	}
	return out
}
