package timeexpr

import (
	"time"
)

// match is what a rule read at a word: n words naming [start, end).
type match struct {
	n          int
	start, end time.Time
	grain      Grain
	rel        string
}

// scan is a text's words and the reference day they are resolved against.
type scan struct {
	toks []tok
	ref  time.Time
	text string
}

// at is word i, or "" past the end.
func (s *scan) at(i int) string {
	if i < len(s.toks) {
		return s.toks[i].w
	}
	return ""
}

// is reports whether the words from i are ws.
func (s *scan) is(i int, ws ...string) bool {
	for k, w := range ws {
		if s.at(i+k) != w {
			return false
		}
	}
	return true
}

// rules are tried at every word; the longest match wins.
var rules = []func(*scan, int) (match, bool){
	(*scan).fixedDay, (*scan).ago, (*scan).ahead, (*scan).lastNext, (*scan).absolute, (*scan).anchored,
}

// Find returns every time expression of text it can resolve, in order,
// resolved against ref (see the package doc for what it resolves).
func Find(text string, ref time.Time) []Span {
	s := &scan{toks: words(text), ref: day(ref), text: text}
	var out []Span
	for i := 0; i < len(s.toks); {
		best := match{}
		for _, r := range rules {
			if m, ok := r(s, i); ok && m.n > best.n {
				best = m
			}
		}
		if best.n == 0 {
			i++
			continue
		}
		from, to := s.toks[i].pos, s.toks[i+best.n-1].end
		out = append(out, Span{Text: text[from:to], Pos: from, Start: best.start, End: best.end, Grain: best.grain, Relative: best.rel})
		i += best.n
	}
	return out
}

// Resolve resolves expr as a whole ("last week", "8 May, 2023"): the one
// span that covers all of its words, or false.
func Resolve(expr string, ref time.Time) (Span, bool) {
	spans := Find(expr, ref)
	ws := words(expr)
	if len(spans) != 1 || len(ws) == 0 || spans[0].Pos != ws[0].pos || spans[0].Pos+len(spans[0].Text) != ws[len(ws)-1].end {
		return Span{}, false
	}
	return spans[0], true
}
