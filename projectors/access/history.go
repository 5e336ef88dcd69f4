package access

import "sort"

// change is one grant, revoke or expiry of one edge.
type change struct {
	rev     uint64
	at      int64
	granted bool
	// expires is the unix-nanosecond instant a grant ends by itself; 0 for
	// a grant until revoked.
	expires int64
}

// live reports whether c leaves the edge granted at p: a grant, not past
// its expiry if p has an instant to judge that against.
func (c change) live(p Point) bool {
	ns, judged := p.instant()
	return c.granted && (c.expires == 0 || !judged || ns < c.expires)
}

// history is every change of one edge, kept in two orders so that both kinds
// of Point are a binary search: byRev is append-only (events arrive in log
// order); byTime is sorted by (at, rev) and usually appended to as well,
// because event times mostly grow with the log. Expired events are in byRev
// only: by time, a grant's own expiry instant already ends it, so answers
// by time do not depend on when an expirer got round to writing one.
type history struct {
	byRev  []change
	byTime []change
}

func (h *history) add(c change, timed bool) {
	h.byRev = append(h.byRev, c)
	if !timed {
		return
	}
	i := sort.Search(len(h.byTime), func(i int) bool {
		x := h.byTime[i]
		return x.at > c.at || x.at == c.at && x.rev > c.rev
	})
	h.byTime = append(h.byTime, change{})
	copy(h.byTime[i+1:], h.byTime[i:])
	h.byTime[i] = c
}

// deciding returns the change that decides the edge at p, if any.
func (h *history) deciding(p Point) (change, bool) {
	if p.byTime {
		s := h.byTime
		i := sort.Search(len(s), func(i int) bool { return s[i].at > p.at })
		if i == 0 {
			return change{}, false
		}
		return s[i-1], true
	}
	s := h.byRev
	i := sort.Search(len(s), func(i int) bool { return s[i].rev > p.rev })
	if i == 0 {
		return change{}, false
	}
	return s[i-1], true
}

// granted reports whether the edge exists at p: by time, the change in
// force at p.at unless its expiry is at or before p.at; by revision, the
// last change up to p.rev unless p carries a clock at or past its expiry.
func (h *history) granted(p Point) bool {
	c, ok := h.deciding(p)
	return ok && c.live(p)
}

// edges is one bipartite graph: from -> to -> history.
type edges map[string]map[string]*history

func (e edges) add(from, to string, c change, timed bool) {
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
	h.add(c, timed)
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

// expiries returns, for the ids reachable from from at p, the expiry of
// those whose grant has one.
func (e edges) expiries(from string, p Point) map[string]int64 {
	var out map[string]int64
	for to, h := range e[from] {
		if c, ok := h.deciding(p); ok && c.live(p) && c.expires != 0 {
			if out == nil {
				out = map[string]int64{}
			}
			out[to] = c.expires
		}
	}
	return out
}
