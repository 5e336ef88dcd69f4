package access

import "sort"

// change is one grant or revoke of one edge.
type change struct {
	rev     uint64
	at      int64
	granted bool
}

// history is every change of one edge, kept in two orders so that both kinds
// of Point are a binary search: byRev is append-only (events arrive in log
// order); byTime is sorted by (at, rev) and usually appended to as well,
// because event times mostly grow with the log.
type history struct {
	byRev  []change
	byTime []change
}

func (h *history) add(c change) {
	h.byRev = append(h.byRev, c)
	i := sort.Search(len(h.byTime), func(i int) bool {
		x := h.byTime[i]
		return x.at > c.at || x.at == c.at && x.rev > c.rev
	})
	h.byTime = append(h.byTime, change{})
	copy(h.byTime[i+1:], h.byTime[i:])
	h.byTime[i] = c
}

// granted reports whether the edge exists at p.
func (h *history) granted(p Point) bool {
	if p.byTime {
		s := h.byTime
		i := sort.Search(len(s), func(i int) bool { return s[i].at > p.at })
		return i > 0 && s[i-1].granted
	}
	s := h.byRev
	i := sort.Search(len(s), func(i int) bool { return s[i].rev > p.rev })
	return i > 0 && s[i-1].granted
}

// edges is one bipartite graph: from -> to -> history.
type edges map[string]map[string]*history

func (e edges) add(from, to string, c change) {
	m := e[from]
	if m == nil {
		m = make(map[string]*history)
		e[from] = m
	}
	h := m[to]
	if h == nil {
		h = &history{}
		m[to] = h
	}
	h.add(c)
}

func (e edges) has(from, to string, p Point) bool {
	h := e[from][to]
	return h != nil && h.granted(p)
}

// neighbours returns the sorted ids reachable from from at p.
func (e edges) neighbours(from string, p Point) []string {
	out := []string{}
	for to, h := range e[from] {
		if h.granted(p) {
			out = append(out, to)
		}
	}
	sort.Strings(out)
	return out
}
