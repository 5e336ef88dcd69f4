package events

import (
	"bytes"
	"errors"
	"io"
	"math"
	"regexp"
	"strconv"
	"sync"
	"unicode/utf8"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// fastCheck is a compiled JSON Schema that checks event data straight off
// its bytes, without first decoding it into maps, for the keywords the
// event schemas use most: type string, boolean, object and array; pattern,
// minLength and maxLength; properties, required and additionalProperties
// false; items, minItems and uniqueItems of strings; minimum and maximum;
// enums of strings and format date-time. A subschema with any
// other keyword is handed, with just its
// value decoded, to the schema library itself. Decoding every event into
// maps for the library is most of what a rebuild spends, and this check
// answers the same at a fraction of the cost.
//
// It only ever says "valid" or "not sure": CheckData runs the library on
// whatever it does not accept, for the verdict and the message.
// TestFastCheckAgreesWithSchema holds the two to the same verdicts.
type fastCheck struct {
	kind     fastKind
	delegate *jsonschema.Schema // kindDelegate

	// strings
	pattern        *regexp.Regexp
	minLen, maxLen int // -1: unbounded
	// class, when set, is pattern as a table: ^[class]{classMin,classMax}$
	// of ASCII bytes, which is how most identifiers are written.
	class              *[256]bool
	classMin, classMax int
	// enum, when set, is every value the string may take; dateTime asks
	// for a date-time certainly valid (see certainDateTime).
	enum     map[string]struct{}
	dateTime bool

	// numbers, both exactly representable as float64
	integer          bool
	minimum, maximum *float64

	// objects
	props    map[string]*fastProp
	required int  // how many properties are required
	closed   bool // additionalProperties: false

	// arrays
	items    *fastCheck // nil: anything
	minItems int
	unique   bool // items are strings (checked at compile time)
}

type fastProp struct {
	check *fastCheck
	req   int // bit index among the required properties, -1 if optional
}

type fastKind uint8

const (
	kindDelegate fastKind = iota
	kindString
	kindBool
	kindObject
	kindArray
	kindNumber
)

// valid reports whether data is certainly valid; false means "ask the
// library".
func (n *fastCheck) valid(data []byte) bool {
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

func (n *fastCheck) checkString(s []byte) bool {
	if n.enum != nil {
		_, ok := n.enum[string(s)]
		return ok
	}
	if n.dateTime {
		return certainDateTime(s)
	}
	if n.minLen >= 0 || n.maxLen >= 0 {
		l := utf8.RuneCount(s)
		if (n.minLen >= 0 && l < n.minLen) || (n.maxLen >= 0 && l > n.maxLen) {
			return false
		}
	}
	switch {
	case n.class != nil:
		if len(s) < n.classMin || len(s) > n.classMax {
			return false
		}
		for _, c := range s {
			if !n.class[c] {
				return false
			}
		}
		return true
	case n.pattern != nil:
		return n.pattern.Match(s)
	}
	return true
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
			if !unseen(&strs, &set, s) {
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

// unseen records s among the strings of an array with unique items and
// reports whether it is new.
func unseen(strs *[][]byte, set *map[string]struct{}, s []byte) bool {
	if *set != nil {
		if _, ok := (*set)[string(s)]; ok {
			return false
		}
		(*set)[string(s)] = struct{}{}
		return true
	}
	for _, o := range *strs {
		if bytes.Equal(o, s) {
			return false
		}
	}
	*strs = append(*strs, bytes.Clone(s))
	if len(*strs) > 16 {
		*set = make(map[string]struct{}, 2*len(*strs))
		for _, o := range *strs {
			(*set)[string(o)] = struct{}{}
		}
	}
	return true
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
