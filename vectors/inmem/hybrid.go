package inmem

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/cmem/cmem/internal/textindex"
	"github.com/cmem/cmem/vectors"
)

var _ vectors.HybridSearcher = (*Store)(nil)

// lexInfo is where a fragment's text is indexed: its partition, how many
// chunks it has (their ids are chunkID(id, 0..chunks-1)) and its value's
// token count, the n of the length prior.
type lexInfo struct {
	part   partKey
	chunks int
	tokens int
}

// chunkID names chunk n of fragment id in a partition's text index. A NUL
// never occurs in an id (events.CheckID), so the fragment id is the text
// before it.
func chunkID(id string, n int) string { return id + "\x00" + strconv.Itoa(n) }

func fragmentOf(chunk string) string {
	id, _, _ := strings.Cut(chunk, "\x00")
	return id
}

func (s *Store) indexText(k partKey, f *vectors.Fragment) {
	ix := s.text[k]
	if ix == nil {
		ix = textindex.New(vectors.TextConfig)
		s.text[k] = ix
	}
	chunks := vectors.Chunks(f.Key, f.Value)
	for n, c := range chunks {
		ix.Add(chunkID(f.ID, n), c)
	}
	s.lex[f.ID] = lexInfo{part: k, chunks: len(chunks), tokens: vectors.ValueTokens(f.Value)}
}

func (s *Store) unindexText(id string) {
	li, ok := s.lex[id]
	if !ok {
		return
	}
	ix := s.text[li.part]
	for n := range li.chunks {
		ix.Remove(chunkID(id, n))
	}
	delete(s.lex, id)
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
	defer s.mu.RUnlock()
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
	admits := func(chunk string) bool {
		at, ok := s.where[fragmentOf(chunk)]
		return ok && at.p == p && p.admits(at.row, fb.slots, fb.a, fb.r)
	}
	if ix := s.text[key]; ix != nil {
		for _, h := range ix.Search(q.Text, depth, admits) {
			id := fragmentOf(h.ID)
			if c, ok := cands[id]; ok {
				c.lx = max(c.lx, h.Score) // a fragment's best chunk
				continue
			}
			row := s.where[id].row
			cands[id] = &cand{row: row, lx: h.Score, cos: float64(clamp(dot(vq.unit, p.vector(row)) * p.inv[row]))}
		}
	}
	top := scan(p, &vq, &fb, depth)
	for _, c := range top.c {
		id := p.meta[c.row].ID
		if _, ok := cands[id]; !ok {
			cands[id] = &cand{row: int(c.row), cos: float64(c.score)}
		}
	}
	hits := make([]vectors.Hit, 0, len(cands))
	for id, c := range cands {
		h := vectors.Hit{Fragment: p.fragment(c.row)}
		h.Score = float32(vectors.HybridScore(c.cos, c.lx, s.lex[id].tokens))
		h.Cosine, h.Lexical = float32(c.cos), float32(vectors.LexicalRelevance(c.lx))
		hits = append(hits, h)
	}
	slices.SortFunc(hits, func(a, b vectors.Hit) int {
		if c := cmp.Compare(b.Score, a.Score); c != 0 {
			return c
		}
		return strings.Compare(a.ID, b.ID)
	})
	return hits[:min(k, len(hits))], nil
}
