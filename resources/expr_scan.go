package resources

import (
	"errors"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// tokKind classifies the tokens of a computation expression.
type tokKind int

const (
	tokEOF tokKind = iota
	tokNum
	tokName
	tokPunct // one of + - * / % ^ ( ) ,
)

type token struct {
	kind tokKind
	text string
	num  float64
	pos  int
}

// next scans the token after the current one.
func (p *parser) next() error {
	for p.off < len(p.src) && strings.IndexByte(" \t\r\n", p.src[p.off]) >= 0 {
		p.off++
	}
	start := p.off
	if start == len(p.src) {
		p.tok = token{kind: tokEOF, pos: start}
		return nil
	}
	c := p.src[start]
	switch {
	case isDigit(c) || c == '.':
		return p.scanNumber()
	case isNameStart(c):
		for p.off < len(p.src) && (isNameStart(p.src[p.off]) || isDigit(p.src[p.off])) {
			p.off++
		}
		p.tok = token{kind: tokName, text: p.src[start:p.off], pos: start}
	case strings.IndexByte("+-*/%^(),", c) >= 0:
		p.off++
		p.tok = token{kind: tokPunct, text: p.src[start:p.off], pos: start}
	default:
		r, _ := utf8.DecodeRuneInString(p.src[start:])
		return p.errorf(start, "unexpected character %q", r)
	}
	return nil
}

// scanNumber scans digits [ "." digits ] [ ("e" | "E") [sign] digits ].
func (p *parser) scanNumber() error {
	start := p.off
	digits := p.skipDigits()
	if p.off < len(p.src) && p.src[p.off] == '.' {
		p.off++
		digits += p.skipDigits()
	}
	if digits == 0 {
		return p.errorf(start, "malformed number")
	}
	if p.off < len(p.src) && (p.src[p.off] == 'e' || p.src[p.off] == 'E') {
		p.off++
		if p.off < len(p.src) && (p.src[p.off] == '+' || p.src[p.off] == '-') {
			p.off++
		}
		if p.skipDigits() == 0 {
			return p.errorf(start, "malformed number %q", p.src[start:p.off])
		}
	}
	if p.off < len(p.src) && (isNameStart(p.src[p.off]) || p.src[p.off] == '.') {
		return p.errorf(start, "malformed number %q", p.src[start:p.off+1])
	}
	text := p.src[start:p.off]
	v, err := strconv.ParseFloat(text, 64)
	if math.IsInf(v, 0) {
		return p.errorf(start, "number %s is out of range", text)
	}
	if err != nil && !errors.Is(err, strconv.ErrRange) { // underflow to 0 is fine
		return p.errorf(start, "malformed number %q", text)
	}
	p.tok = token{kind: tokNum, text: text, num: v, pos: start}
	return nil
}

func (p *parser) skipDigits() int {
	n := 0
	for p.off < len(p.src) && isDigit(p.src[p.off]) {
		p.off++
		n++
	}
	return n
}

func isDigit(c byte) bool     { return '0' <= c && c <= '9' }
func isNameStart(c byte) bool { return c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }
