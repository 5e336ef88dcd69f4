package events

import (
	"bytes"
	"regexp"
	"unicode/utf8"

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
	s := scanner{b: data}
	s.ws()
	if !n.scan(&s, 0) {
		return false
	}
	s.ws()
	return s.i == len(data)
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

// unseen records s among the strings of an array with unique items and
// reports whether it is new. It keeps s itself: the scanner's strings are
// slices of the data or fresh copies, valid for the whole check.
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
	*strs = append(*strs, s)
	if len(*strs) > 16 {
		*set = make(map[string]struct{}, 2*len(*strs))
		for _, o := range *strs {
			(*set)[string(o)] = struct{}{}
		}
	}
	return true
}
