package clickhouse

import "time"

// scratch hands out the column slices of one table's insert, keeping them
// for the next flush: laying out a batch as columns allocated a fresh set
// of slices every flush, which the garbage collector then had to find.
// The driver copies what Column().Append is given, so a slice is free
// again once its insert has been sent. One scratch serves one insert at a
// time.
type scratch struct {
	strs  slab[string]
	u64   slab[uint64]
	i64   slab[int64]
	times slab[time.Time]
	u8    slab[uint8]
	u32   slab[uint32]
	lists slab[[]string]
}

// reset makes every slice handed out so far available again.
func (s *scratch) reset() {
	s.strs.next, s.u64.next, s.i64.next, s.times.next = 0, 0, 0, 0
	s.u8.next, s.u32.next, s.lists.next = 0, 0, 0
}

// slab is the slices of one element type, handed out in turn.
type slab[T any] struct {
	bufs [][]T
	next int
}

// get returns an empty slice with room for n elements, which appending up
// to n keeps in place (so the slab still holds the same array).
func (s *slab[T]) get(n int) []T {
	if s.next == len(s.bufs) {
		s.bufs = append(s.bufs, nil)
	}
	b := s.bufs[s.next][:0]
	if cap(b) < n {
		b = make([]T, 0, n)
		s.bufs[s.next] = b
	}
	s.next++
	return b
}
