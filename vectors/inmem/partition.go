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
	codes          []int8             // row i quantised, codes[i*dims : (i+1)*dims] (quant.go)
	qk             []float32          // row i's code scale times inv: code dot → cosine
	qerr           []float32          // row i's residual norm times inv
	ids            []uint32           // row i's interned A(m), R(m) as slot bits
	overflows      int                // rows whose ids overflow their slots: ids[i*idSlots : (i+1)*idSlots]
	agents         []uint64           // row i is agents[i*aWords : (i+1)*aWords]
	res            []uint64           // row i is res[i*rWords : (i+1)*rWords]
	lex            []rowLex           // row i's text in the store's text index (hybrid.go)
}

// A row's admissibility is checked on its few interned ids, looked up in
// one bitset of the filter's allowed ids: a fragment needs a handful of
// agents and resources, so idSlots uint32s per row are read instead of the
// full fixed-stride bitsets (which grow with the universe: 1000 resources
// are 16 words a row), and the check is branch-free (a rejected row is a
// coin toss the branch predictor loses). Slots hold bit positions in that
// bitset: agent n at 2+2n, resource n at 3+2n, an unused slot at bit 0
// (always set), and a row with more ids than slots has bit 1 (never set) in
// slot 0 and is checked on its bitsets, which every row keeps.
const (
	idSlots     = 8
	unusedSlot  = 0
	overflowBit = 1
)

func agentBit(n int) uint32    { return uint32(2 + 2*n) }
func resourceBit(n int) uint32 { return uint32(3 + 2*n) }

func newPartition(dims, aWords, rWords int) *partition {
	return &partition{dims: dims, aWords: aWords, rWords: rWords}
}

func (p *partition) len() int { return len(p.meta) }

func (p *partition) vector(row int) []float32 {
	return p.vecs[row*p.dims : (row+1)*p.dims]
}

func (p *partition) code(row int) []int8 {
	return p.codes[row*p.dims : (row+1)*p.dims]
}

// add appends f and returns its row. Slices are copied: the caller keeps
// ownership of f.
func (p *partition) add(f *vectors.Fragment, agents, res []int, lx rowLex) int {
	p.lex = append(p.lex, lx)
	m := *f
	m.Vector = nil
	m.Agents = slices.Clone(f.Agents)
	m.Resources = slices.Clone(f.Resources)
	p.meta = append(p.meta, m)
	p.vecs = append(p.vecs, f.Vector...)
	inv := invNorm(f.Vector)
	p.inv = append(p.inv, inv)
	p.codes = append(p.codes, make([]int8, p.dims)...)
	scale, residual := quantize(f.Vector, p.code(len(p.meta)-1))
	p.qk = append(p.qk, scale*inv)
	p.qerr = append(p.qerr, residual*inv)
	p.ids = appendIDs(p.ids, agents, res)
	if len(agents)+len(res) > idSlots {
		p.overflows++
	}
	p.agents = appendBits(p.agents, p.aWords, agents)
	p.res = appendBits(p.res, p.rWords, res)
	return len(p.meta) - 1
}

// remove deletes row by moving the last row into it. It returns the id of
// the moved fragment, if one moved.
func (p *partition) remove(row int) (string, bool) {
	last := len(p.meta) - 1
	moved := row != last
	if p.ids[row*idSlots] == overflowBit {
		p.overflows--
	}
	if moved {
		p.meta[row] = p.meta[last]
		copy(p.vector(row), p.vector(last))
		p.inv[row] = p.inv[last]
		copy(p.code(row), p.code(last))
		p.qk[row], p.qerr[row] = p.qk[last], p.qerr[last]
		copy(p.ids[row*idSlots:(row+1)*idSlots], p.ids[last*idSlots:])
		copy(p.agents[row*p.aWords:(row+1)*p.aWords], p.agents[last*p.aWords:])
		copy(p.res[row*p.rWords:(row+1)*p.rWords], p.res[last*p.rWords:])
		p.lex[row] = p.lex[last]
	}
	p.meta[last] = vectors.Fragment{} // drop references for the GC
	p.meta = p.meta[:last]
	p.vecs = p.vecs[:last*p.dims]
	p.inv = p.inv[:last]
	p.codes = p.codes[:last*p.dims]
	p.qk, p.qerr = p.qk[:last], p.qerr[:last]
	p.ids = p.ids[:last*idSlots]
	p.agents = p.agents[:last*p.aWords]
	p.res = p.res[:last*p.rWords]
	p.lex = p.lex[:last]
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

// admitRowsGeneric is admitRows without the vector kernel.
func admitRowsGeneric(p *partition, allowed []uint32, from, to int, rows []int32) []int32 {
	for row := from; row < to; row++ {
		if p.slotsAdmit(row, allowed) {
			rows = append(rows, int32(row))
		}
	}
	return rows
}

// slotsAdmit reports whether all of row's slot bits are set in allowed.
func (p *partition) slotsAdmit(row int, allowed []uint32) bool {
	ids := p.ids[row*idSlots : (row+1)*idSlots : (row+1)*idSlots]
	ok := uint32(1)
	for _, b := range ids {
		ok &= allowed[b>>5] >> (b & 31)
	}
	return ok&1 != 0
}

// admits reports whether row's A(m) ⊆ allowedA and R(m) ⊆ allowedR;
// allowed is the same sets as slot bits (allowedBits).
func (p *partition) admits(row int, allowed []uint32, allowedA, allowedR []uint64) bool {
	if p.slotsAdmit(row, allowed) {
		return true
	}
	if p.ids[row*idSlots] != overflowBit {
		return false
	}
	return subset(p.agents[row*p.aWords:(row+1)*p.aWords], allowedA) &&
		subset(p.res[row*p.rWords:(row+1)*p.rWords], allowedR)
}

func appendIDs(dst []uint32, agents, res []int) []uint32 {
	start := len(dst)
	dst = append(dst, make([]uint32, idSlots)...)
	row := dst[start:]
	if len(agents)+len(res) > idSlots {
		row[0] = overflowBit // counted by add
		return dst
	}
	for i, a := range agents {
		row[i] = agentBit(a)
	}
	for i, r := range res {
		row[len(agents)+i] = resourceBit(r)
	}
	return dst
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

// ids returns the interned ints of the ids that are interned.
func (in *interner) ids(ids []string) []int {
	out := make([]int, 0, len(ids))
	for _, id := range ids {
		if n, ok := in.idx[id]; ok {
			out = append(out, n)
		}
	}
	return out
}
