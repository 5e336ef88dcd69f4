package events

import (
	"bytes"
	"errors"
	"io"
	"math"
	"strconv"
	"sync"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// The fast check as it was before it read with the envelope's scanner:
// the same walk over a jsontext.Decoder. It is kept here as the reference
// TestScanCheckAgreesWithDecoderCheck holds scan to.

// decoderValid reports whether data is certainly valid; false means "ask the
// library".
func (n *fastCheck) decoderValid(data []byte) bool {
	r := decoders.Get().(*pooledDecoder)
	defer decoders.Put(r)
	r.src.Reset(data)
	r.dec.Reset(&r.src)
	if !n.check(&r.dec) {
		return false
	}
	_, err := r.dec.ReadToken()
	return errors.Is(err, io.EOF)
}

type pooledDecoder struct {
	src bytes.Reader
	dec jsontext.Decoder
}

var decoders = sync.Pool{New: func() any { return new(pooledDecoder) }}

func (n *fastCheck) check(d *jsontext.Decoder) bool {
	switch n.kind {
	case kindString:
		s, ok := readString(d)
		return ok && n.checkString(s)
	case kindBool:
		if k := d.PeekKind(); k != 't' && k != 'f' {
			return false
		}
		_, err := d.ReadToken()
		return err == nil
	case kindObject:
		return n.checkObject(d)
	case kindArray:
		return n.checkArray(d)
	case kindNumber:
		return n.checkNumber(d)
	}
	v, err := d.ReadValue()
	if err != nil {
		return false
	}
	var x any
	if err := jsonv2.Unmarshal(v, &x); err != nil {
		return false
	}
	return n.delegate.Validate(x) == nil
}

func (n *fastCheck) checkObject(d *jsontext.Decoder) bool {
	if d.PeekKind() != '{' {
		return false
	}
	if _, err := d.ReadToken(); err != nil {
		return false
	}
	var seen uint64
	for d.PeekKind() == '"' {
		name, ok := readString(d)
		if !ok {
			return false
		}
		p := n.props[string(name)]
		switch {
		case p == nil && n.closed:
			return false
		case p == nil || p.check == nil:
			if d.SkipValue() != nil {
				return false
			}
		case !p.check.check(d):
			return false
		}
		if p != nil && p.req >= 0 {
			seen |= 1 << p.req
		}
	}
	if d.PeekKind() != '}' {
		return false
	}
	if _, err := d.ReadToken(); err != nil {
		return false
	}
	return seen == 1<<n.required-1
}

func (n *fastCheck) checkArray(d *jsontext.Decoder) bool {
	if d.PeekKind() != '[' {
		return false
	}
	if _, err := d.ReadToken(); err != nil {
		return false
	}
	var strs [][]byte
	var set map[string]struct{} // past a few items
	count := 0
	for k := d.PeekKind(); k != ']' && k != 0; k = d.PeekKind() {
		count++
		switch {
		case n.unique:
			s, ok := readString(d)
			if !ok || !n.items.checkString(s) {
				return false
			}
			if !unseen(&strs, &set, bytes.Clone(s)) { // the decoder reuses its buffer
				return false
			}
		case n.items == nil:
			if d.SkipValue() != nil {
				return false
			}
		case !n.items.check(d):
			return false
		}
	}
	if _, err := d.ReadToken(); err != nil { // ']', or the decoder's error
		return false
	}
	return count >= n.minItems
}

// readString reads a string token and returns its decoded bytes, valid
// until the next read.
func readString(d *jsontext.Decoder) ([]byte, bool) {
	if d.PeekKind() != '"' {
		return nil, false
	}
	v, err := d.ReadValue()
	if err != nil {
		return nil, false
	}
	if bytes.IndexByte(v, '\\') < 0 {
		return v[1 : len(v)-1], true
	}
	s, err := jsontext.AppendUnquote(nil, v)
	return s, err == nil
}

// checkNumber reads a number as the library is given it (a float64) and
// checks it. An integer is a float64 without a fraction: the shortest
// decimal of such a float64, which the library looks at, has none either.
func (n *fastCheck) checkNumber(d *jsontext.Decoder) bool {
	if d.PeekKind() != '0' {
		return false
	}
	v, err := d.ReadValue()
	if err != nil {
		return false
	}
	f, err := strconv.ParseFloat(string(v), 64)
	if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
		return false
	}
	return (!n.integer || f == math.Trunc(f)) && (n.minimum == nil || f >= *n.minimum) &&
		(n.maximum == nil || f <= *n.maximum)
}
