package events

import (
	"bytes"
	"math"
	"strconv"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// scan checks one value at s against n, reading the bytes with the
// envelope's scanner rather than a jsontext.Decoder: its strings are
// skipped eight bytes a step, which is what a 1 KiB base64 vector costs
// on every rebuilt fragment. Like check it only says "valid" or "not
// sure": any syntax it does not certainly accept (too deep, too many
// members, an escaped member name, a duplicate) is false, and the library
// decides. TestFastCheckAgreesWithSchema, FuzzFastCheck and
// TestScanCheckAgreesWithDecoderCheck hold it to the library and to check.
func (n *fastCheck) scan(s *scanner, depth int) bool {
	if depth > maxDepth {
		return false
	}
	switch n.kind {
	case kindString:
		str, ok := s.anyString()
		return ok && n.checkString(str)
	case kindBool:
		for _, lit := range []string{"true", "false"} {
			if bytes.HasPrefix(s.b[s.i:], []byte(lit)) {
				s.i += len(lit)
				return true
			}
		}
		return false
	case kindObject:
		return n.scanObject(s, depth)
	case kindArray:
		return n.scanArray(s, depth)
	case kindNumber:
		return n.scanNumber(s)
	}
	start := s.i
	if !s.value(depth) {
		return false
	}
	var x any
	if err := jsonv2.Unmarshal(s.b[start:s.i], &x); err != nil {
		return false
	}
	return n.delegate.Validate(x) == nil
}

// anyString reads a string and returns its decoded bytes (valid until the
// next read when it had escapes). One with escapes is found by its
// closing quote and judged and unquoted by jsontext, as the decoder would.
func (s *scanner) anyString() ([]byte, bool) {
	if !s.eat('"') {
		return nil, false
	}
	start := s.i
	if body, esc, ok := s.stringBody(); ok && !esc {
		return body, true
	}
	i := start
	for i < len(s.b) && s.b[i] != '"' {
		if s.b[i] == '\\' {
			i++
		}
		i++
	}
	if i >= len(s.b) {
		return nil, false
	}
	s.i = i + 1
	out, err := jsontext.AppendUnquote(nil, s.b[start-1:s.i])
	return out, err == nil
}

func (n *fastCheck) scanObject(s *scanner, depth int) bool {
	if !s.eat('{') {
		return false
	}
	var names [maxMembers][]byte
	count := 0
	var seen uint64
	s.ws()
	for first := true; !s.eat('}'); first = false {
		if !first && !s.eat(',') {
			return false
		}
		s.ws()
		name, ok := s.plainString()
		if !ok || count == maxMembers {
			return false
		}
		for _, prev := range names[:count] {
			if bytes.Equal(prev, name) {
				return false
			}
		}
		names[count], count = name, count+1
		s.ws()
		if !s.eat(':') {
			return false
		}
		s.ws()
		p := n.props[string(name)]
		switch {
		case p == nil && n.closed:
			return false
		case p == nil || p.check == nil:
			if !s.value(depth + 1) {
				return false
			}
		case !p.check.scan(s, depth+1):
			return false
		}
		if p != nil && p.req >= 0 {
			seen |= 1 << p.req
		}
		s.ws()
	}
	return seen == 1<<n.required-1
}

func (n *fastCheck) scanArray(s *scanner, depth int) bool {
	if !s.eat('[') {
		return false
	}
	var strs [][]byte
	var set map[string]struct{} // past a few items
	count := 0
	s.ws()
	for first := true; !s.eat(']'); first = false {
		if !first && !s.eat(',') {
			return false
		}
		s.ws()
		count++
		switch {
		case n.unique:
			str, ok := s.anyString()
			if !ok || !n.items.checkString(str) || !unseen(&strs, &set, str) {
				return false
			}
		case n.items == nil:
			if !s.value(depth + 1) {
				return false
			}
		case !n.items.scan(s, depth+1):
			return false
		}
		s.ws()
	}
	return count >= n.minItems
}

// scanNumber reads a number as the library is given it (a float64); see
// checkNumber.
func (n *fastCheck) scanNumber(s *scanner) bool {
	start := s.i
	if c := s.peek(); c != '-' && !isDigit(c) || !s.number() {
		return false
	}
	f, err := strconv.ParseFloat(string(s.b[start:s.i]), 64)
	if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
		return false
	}
	return (!n.integer || f == math.Trunc(f)) && (n.minimum == nil || f >= *n.minimum) &&
		(n.maximum == nil || f <= *n.maximum)
}
