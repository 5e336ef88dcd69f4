package inmem

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"

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
	defer s.mu.RUnlock()
	if s.closed {
		return nil, ErrClosed
	}
	p, ok := s.parts[keyOf(f.Tier, f.User)]
	if !ok || k <= 0 {
		return []vectors.Hit{}, nil
	}
	allowedA := s.agents.bitsOf(f.AllowedAgents, p.aWords)
	allowedR := s.res.bitsOf(f.AllowedResources, p.rWords)

	q := slices.Clone(vector)
	qinv := invNorm(q)
	for i := range q {
		q[i] *= qinv
	}

	top := scan(p, q, allowedA, allowedR, k)
	hits := make([]vectors.Hit, 0, len(top.c))
	for _, c := range top.sorted() {
		hits = append(hits, vectors.Hit{Fragment: p.fragment(int(c.row)), Score: c.score})
	}
	return hits, nil
}

// parallelRows is the partition size from which a search is split across
// the CPUs: below it, starting goroutines costs more than it saves.
const parallelRows = 16384

// scan is the exact top-k of the rows of p inside the allowed sets. A large
// partition is cut into one stripe per CPU, each with its own top-k, merged
// at the end: the result is the same (ties break by ID in both), the
// latency about 1/GOMAXPROCS of a single pass.
func scan(p *partition, q []float32, allowedA, allowedR []uint64, k int) topK {
	rows := p.len()
	stripes := 1
	if rows >= parallelRows {
		stripes = min(runtime.GOMAXPROCS(0), rows/(parallelRows/2))
	}
	tops := make([]topK, stripes)
	var wg sync.WaitGroup
	for i := range stripes {
		lo, hi := rows*i/stripes, rows*(i+1)/stripes
		tops[i] = topK{k: k, meta: p.meta}
		wg.Go(func() {
			t := &tops[i]
			for row := lo; row < hi; row++ {
				if !subset(p.agents[row*p.aWords:(row+1)*p.aWords], allowedA) ||
					!subset(p.res[row*p.rWords:(row+1)*p.rWords], allowedR) {
					continue
				}
				t.offer(int32(row), clamp(dot(q, p.vector(row))*p.inv[row]))
			}
		})
	}
	wg.Wait()
	top := tops[0]
	for _, t := range tops[1:] {
		for _, c := range t.c {
			top.offer(c.row, c.score)
		}
	}
	return top
}

// dot is unrolled four ways: the scan is bound by this loop, and the
// independent accumulators let the CPU overlap the multiply-adds.
func dot(a, b []float32) float32 {
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
