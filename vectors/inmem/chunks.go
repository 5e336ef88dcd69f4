package inmem

import (
	"cmp"
	"strings"

	"github.com/cmem/cmem/internal/textindex"
	"github.com/cmem/cmem/vectors"
)

// textPart is a partition's text index and the numbers of its chunks.
type textPart struct {
	*textindex.Index
	chunks chunkNums
}

// newTextPart returns a partition's empty text index, numbering its terms
// in the store's vocabulary v.
func newTextPart(v *textindex.Vocab) *textPart {
	return &textPart{Index: textindex.NewShared(vectors.TextConfig(), v), chunks: chunkNums{more: map[uint32][]uint32{}}}
}

// chunkNums numbers the chunks of a partition's fragments' texts for its
// text index (textindex.AddDoc): a number names its fragment's text number (rowLex.fid)
// and the chunk's place in the fragment, so a hit leads to its row by two
// array reads and nothing is hashed or built per chunk. Numbers of
// removed chunks are reused, so the index's arrays stay as long as the
// most chunks held at once.
type chunkNums struct {
	of   []chunkRef
	free []uint32
	// more holds a fragment's chunks after its first (rowLex.doc), by
	// the fragment's text number: only values longer than a chunk have
	// them.
	more map[uint32][]uint32
}

// chunkRef is what a chunk number stands for.
type chunkRef struct {
	fid uint32
	n   int32
}

func (c *chunkNums) take(fid uint32, n int) uint32 {
	ref := chunkRef{fid: fid, n: int32(n)}
	if k := len(c.free); k > 0 {
		doc := c.free[k-1]
		c.free = c.free[:k-1]
		c.of[doc] = ref
		return doc
	}
	c.of = append(c.of, ref)
	return uint32(len(c.of) - 1)
}

func (c *chunkNums) release(doc uint32) {
	c.of[doc] = chunkRef{}
	c.free = append(c.free, doc)
}

// addChunks indexes f's chunks (vectors.Chunks) as the fragment numbered
// lx.fid, filling lx's doc, chunks and toks.
func (tp *textPart) addChunks(f *vectors.Fragment, lx *rowLex) {
	if len(f.Value) <= vectors.ChunkTokens {
		// Chunks' one chunk, key + "\n" + value, whose tokens are the
		// key's then the value's: indexed without building it.
		lx.doc = tp.chunks.take(lx.fid, 0)
		lx.chunks, lx.toks = 1, int32(tp.AddDoc(lx.doc, lx.fid, f.Key, f.Value))
		return
	}
	for n, c := range vectors.Chunks(f.Key, f.Value) {
		doc := tp.chunks.take(lx.fid, n)
		if n == 0 {
			lx.doc = doc
		} else {
			tp.chunks.more[lx.fid] = append(tp.chunks.more[lx.fid], doc)
		}
		// The index's own count of each chunk's tokens is what its
		// statistics sum, so the row's share matches them exactly.
		lx.toks += int32(tp.AddDoc(doc, lx.fid, c))
		lx.chunks++
	}
}

// removeChunks drops the chunks of the fragment lx.
func (tp *textPart) removeChunks(lx rowLex) {
	if lx.chunks == 0 {
		return
	}
	tp.RemoveDoc(lx.doc)
	tp.chunks.release(lx.doc)
	for _, doc := range tp.chunks.more[lx.fid] {
		tp.RemoveDoc(doc)
		tp.chunks.release(doc)
	}
	delete(tp.chunks.more, lx.fid)
}

// tie orders two chunks of equal score in p as the Reference does: by
// their fragments' ids, then by their places in the fragment.
func (tp *textPart) tie(p *partition, at []slot) func(a, b uint32) int {
	return func(a, b uint32) int {
		x, y := tp.chunks.of[a], tp.chunks.of[b]
		if x.fid != y.fid {
			return strings.Compare(p.meta[at[x.fid].row].ID, p.meta[at[y.fid].row].ID)
		}
		return cmp.Compare(x.n, y.n)
	}
}
