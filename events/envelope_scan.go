package events

import (
	"bytes"
	"encoding/binary"
)

// scanner walks JSON bytes for fastEnvelope. Every method reports false
// for anything it is not certain the generic decoder accepts unchanged;
// the caller then hands the whole event to that decoder.
type scanner struct {
	b []byte
	i int
	// pend collects the strings a fast decode reads (nil elsewhere).
	pend *pendingStrings
}

// maxDepth and maxMembers bound what the scanner checks itself; deeper or
// wider data goes to the generic decoder.
const (
	maxDepth   = 32
	maxMembers = 32
)

func (s *scanner) ws() {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

func (s *scanner) peek() byte {
	if s.i < len(s.b) {
		return s.b[s.i]
	}
	return 0
}

func (s *scanner) eat(c byte) bool {
	if s.peek() != c {
		return false
	}
	s.i++
	return true
}

const (
	lsb = 0x0101010101010101
	msb = 0x8080808080808080
)

// special reports whether any of the 8 bytes of x is a quote, a
// backslash, a control character or not ASCII (SWAR: eight bytes per
// step, which is what makes a 1 KiB base64 vector cheap to skip).
func special(x uint64) bool {
	zero := func(v uint64) uint64 { return (v - lsb) &^ v & msb }
	return (x&msb)|zero(x^(lsb*'"'))|zero(x^(lsb*'\\'))|((x-lsb*0x20)&^x&msb) != 0
}

// stringBody scans from just after an opening quote to the closing quote
// and returns the body; escapes reports whether it holds a backslash.
// Control characters, invalid UTF-8 and \u escapes (whose surrogates the
// generic decoder judges) are refused.
func (s *scanner) stringBody() (body []byte, escapes, ok bool) {
	start, i, ascii := s.i, s.i, true
	for {
		for i+8 <= len(s.b) && !special(binary.LittleEndian.Uint64(s.b[i:])) {
			i += 8
		}
		if i >= len(s.b) {
			return nil, false, false
		}
		switch c := s.b[i]; {
		case c == '"':
			body, s.i = s.b[start:i], i+1
			return body, escapes, ascii || validUTF8(body)
		case c == '\\':
			if i+1 >= len(s.b) || bytes.IndexByte([]byte(`"\/bfnrt`), s.b[i+1]) < 0 {
				return nil, false, false
			}
			escapes, i = true, i+2
		case c < 0x20:
			return nil, false, false
		default:
			ascii = ascii && c < 0x80
			i++
		}
	}
}

// plainString reads a string without escapes and returns its body.
func (s *scanner) plainString() ([]byte, bool) {
	if !s.eat('"') {
		return nil, false
	}
	body, esc, ok := s.stringBody()
	return body, ok && !esc
}

// smallInt reads 1 to 9 digits without a leading zero.
func (s *scanner) smallInt() bool {
	start := s.i
	for s.i < len(s.b) && isDigit(s.b[s.i]) {
		s.i++
	}
	n := s.i - start
	return n >= 1 && n <= 9 && (s.b[start] != '0' || n == 1)
}

// value checks one JSON value of any kind: its syntax, the UTF-8 of its
// strings and that no object repeats a member name, which is what the
// generic decoder asks of the data member it keeps as raw bytes.
func (s *scanner) value(depth int) bool {
	if depth > maxDepth {
		return false
	}
	switch c := s.peek(); {
	case c == '{':
		return s.object(depth)
	case c == '[':
		s.i++
		s.ws()
		if s.eat(']') {
			return true
		}
		for {
			s.ws()
			if !s.value(depth + 1) {
				return false
			}
			s.ws()
			if s.eat(']') {
				return true
			}
			if !s.eat(',') {
				return false
			}
		}
	case c == '"':
		s.i++
		_, _, ok := s.stringBody()
		return ok
	case c == '-' || isDigit(c):
		return s.number()
	default:
		for _, lit := range []string{"true", "false", "null"} {
			if bytes.HasPrefix(s.b[s.i:], []byte(lit)) {
				s.i += len(lit)
				return true
			}
		}
		return false
	}
}

// object checks an object; member names with escapes are refused (two
// spellings of one name are a duplicate only once unescaped).
func (s *scanner) object(depth int) bool {
	var names [maxMembers][]byte
	n := 0
	s.i++
	s.ws()
	if s.eat('}') {
		return true
	}
	for {
		s.ws()
		name, ok := s.plainString()
		if !ok || n == maxMembers {
			return false
		}
		for _, prev := range names[:n] {
			if bytes.Equal(prev, name) {
				return false
			}
		}
		names[n], n = name, n+1
		s.ws()
		if !s.eat(':') {
			return false
		}
		s.ws()
		if !s.value(depth + 1) {
			return false
		}
		s.ws()
		if s.eat('}') {
			return true
		}
		if !s.eat(',') {
			return false
		}
	}
}

// number checks -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?.
func (s *scanner) number() bool {
	s.eat('-')
	digits := func() int {
		start := s.i
		for s.i < len(s.b) && isDigit(s.b[s.i]) {
			s.i++
		}
		return s.i - start
	}
	if s.eat('0') {
		if isDigit(s.peek()) {
			return false
		}
	} else if digits() == 0 {
		return false
	}
	if s.eat('.') && digits() == 0 {
		return false
	}
	if c := s.peek(); c == 'e' || c == 'E' {
		s.i++
		if c := s.peek(); c == '+' || c == '-' {
			s.i++
		}
		if digits() == 0 {
			return false
		}
	}
	return true
}
