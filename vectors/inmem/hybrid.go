package inmem

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/cmem/cmem/internal/textindex"
	"github.com/cmem/cmem/vectors"
)

var _ vectors.HybridSearcher = (*Store)(nil)

// rowLex is a row's text in its partition's text index: the fragment's
// text number, the number of its first chunk in the index (chunks.go),
// its chunks' count and total length in tokens (the row's share of the
// BM25 statistics), and its value's length, the n of the length prior.
type rowLex struct {
	fid, doc     uint32
	chunks, toks int32
	valueToks    int32
}

// fids numbers fragments for the text index, so that the allow predicate
// of a search is a bitset over these numbers and a hit finds its row by
// two array reads, not by hashing an id. Numbers of removed fragments
// are reused.
type fids struct {
	at   []slot // fid → where the fragment is
	free []uint32
}

func (f *fids) take() uint32 {
	if n := len(f.free); n > 0 {
		id := f.free[n-1]
		f.free = f.free[:n-1]
		return id
	}
	f.at = append(f.at, slot{})
	return uint32(len(f.at) - 1)
}

func (f *fids) release(id uint32) {
	f.at[id] = slot{}
	f.free = append(f.free, id)
}

// indexText adds f's chunks to its partition's text index and returns the
// row's rowLex.
func (s *Store) indexText(k partKey, f *vectors.Fragment) rowLex {
	if s.noText {
		return rowLex{fid: s.fids.take()}
	}
	tp := s.text[k]
	if tp == nil {
		tp = newTextPart(s.vocab)
		s.text[k] = tp
	}
	lx := rowLex{fid: s.fids.take(), valueToks: int32(vectors.ValueTokens(f.Value))}
	tp.addChunks(f, &lx)
	return lx
}

// unindexText removes the chunks of the fragment at at.
func (s *Store) unindexText(at slot) {
	lx := at.p.lex[at.row]
	if tp := s.text[keyOf(at.p.meta[at.row].Tier, at.p.meta[at.row].User)]; tp != nil {
		tp.removeChunks(lx)
	}
	s.fids.release(lx.fid)
}

// HybridSearch implements vectors.HybridSearcher. Both sides are drawn
// from the rows of f's partition that f admits: the lexical side asks the
// partition's text index with f's row check as its allow predicate, the
// vector side is Search's exact scan; the union is scored by
// vectors.HybridScore and the best k returned.
func (s *Store) HybridSearch(ctx context.Context, q vectors.Query, f vectors.Filter, k int) ([]vectors.Hit, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if len(q.Vector) != s.dims {
		return nil, fmt.Errorf("inmem: query has %d dimensions, store has %d: %w", len(q.Vector), s.dims, vectors.ErrDimension)
	}
	if !finite(q.Vector) {
		return nil, fmt.Errorf("inmem: query vector has a NaN or infinite value")
	}
	s.mu.RLock()
	release := s.mu.RUnlock
	defer func() { release() }()
	if s.closed {
		return nil, ErrClosed
	}
	key := keyOf(f.Tier, f.User)
	p, ok := s.parts[key]
	if !ok || k <= 0 {
		return []vectors.Hit{}, nil
	}
	fb := s.filterBits(p, f)
	vq := newQuery(q.Vector)
	depth := vectors.HybridDepth(k)
	type cand struct {
		row     int
		cos, lx float64
	}
	cands := make(map[string]*cand, 2*depth)
	// BM25's statistics are those of the rows f admits: a score never
	// depends on a fragment the reader may not see.
	rows, admitted, n, toks := s.admitted(p, &fb)
	release = func() {
		rowBufs.Put(&rows)
		s.mu.RUnlock()
	}
	// The lexical side runs on this goroutine while the scan's other
	// workers start on the vector side; this one joins them after.
	var lex []textindex.DocHit
	tp := s.text[key]
	top, leave := scanRows(p, &vq, &fb, depth, rows, func() {
		if tp != nil {
			lex = tp.SearchDocs(q.Text, depth, admitted, n, toks, tp.tie(p, s.fids.at))
		}
	}, release)
	release = leave
	for _, h := range lex {
		at := s.fids.at[tp.chunks.of[h.Doc].fid]
		id := p.meta[at.row].ID
		if c, ok := cands[id]; ok {
			c.lx = max(c.lx, h.Score) // a fragment's best chunk
			continue
		}
		cands[id] = &cand{row: at.row, lx: h.Score, cos: float64(clamp(dot(vq.unit, p.vector(at.row)) * p.inv[at.row]))}
	}
	for _, c := range top.c {
		id := p.meta[c.row].ID
		if _, ok := cands[id]; !ok {
			cands[id] = &cand{row: int(c.row), cos: float64(c.score)}
		}
	}
	type scored struct {
		id           string
		row          int
		score        float32
		cos, lexical float32
	}
	all := make([]scored, 0, len(cands))
	for id, c := range cands {
		all = append(all, scored{id: id, row: c.row, cos: float32(c.cos), lexical: float32(vectors.LexicalRelevance(c.lx)),
			score: float32(vectors.HybridScore(c.cos, c.lx, int(p.lex[c.row].valueToks)))})
	}
	slices.SortFunc(all, func(a, b scored) int {
		if c := cmp.Compare(b.score, a.score); c != 0 {
			return c
		}
		return strings.Compare(a.id, b.id)
	})
	hits := make([]vectors.Hit, 0, min(k, len(all)))
	for _, c := range all[:min(k, len(all))] {
		hits = append(hits, vectors.Hit{Fragment: p.fragment(c.row), Score: c.score, Cosine: c.cos, Lexical: c.lexical})
	}
	return hits, nil
}
