package events

import (
	"math/big"
	"regexp"
	"strconv"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// compileFast builds the check of s; it never fails, a subschema it does
// not know becomes a delegation.
func compileFast(s *jsonschema.Schema) *fastCheck {
	if n := compileNative(s); n != nil {
		return n
	}
	return &fastCheck{kind: kindDelegate, delegate: s}
}

// assertContent says whether the validator asserts the content keywords
// (contentEncoding, contentMediaType, contentSchema). It does not: in JSON
// Schema 2020-12 they are annotations unless asserted, so a schema that
// uses them (an embedding's base64 vector) checks as its other keywords
// say, natively, instead of handing a 256-d vector's kilobyte-long string
// to the library on every event.
const assertContent = false

// compileNative is the native check of s, or nil when s uses a keyword it
// does not implement.
func compileNative(s *jsonschema.Schema) *fastCheck {
	if n := compileValue(s, !hasOtherKeyword(s)); n != nil {
		return n
	}
	if s.Enum != nil || s.Format != nil || hasOtherKeyword(s) || s.Types == nil {
		return nil
	}

	types := s.Types.ToStrings()
	if len(types) != 1 {
		return nil
	}
	n := &fastCheck{minLen: -1, maxLen: -1}
	if types[0] != "number" && types[0] != "integer" && (s.Minimum != nil || s.Maximum != nil) {
		return nil
	}
	switch types[0] {
	case "number", "integer":
		return compileNumber(s, n, types[0] == "integer")
	case "string":
		n.kind = kindString
		if s.Pattern != nil {
			re, ok := s.Pattern.(*regexp.Regexp)
			if !ok {
				return nil
			}
			n.pattern = re
			n.class, n.classMin, n.classMax = byteClass(re.String())
		}
		if s.MinLength != nil {
			n.minLen = *s.MinLength
		}
		if s.MaxLength != nil {
			n.maxLen = *s.MaxLength
		}
		return n
	case "boolean":
		n.kind = kindBool
		return n
	case "object":
		return compileObject(s, n)
	case "array":
		return compileArray(s, n)
	}
	return nil
}

func compileObject(s *jsonschema.Schema, n *fastCheck) *fastCheck {
	n.kind = kindObject
	switch ap := s.AdditionalProperties.(type) {
	case nil:
	case bool:
		n.closed = !ap
	default:
		return nil
	}
	if len(s.Required) > 64 {
		return nil
	}
	n.props = make(map[string]*fastProp, len(s.Properties)+len(s.Required))
	for name, sub := range s.Properties {
		n.props[name] = &fastProp{check: compileFast(sub), req: -1}
	}
	for _, name := range s.Required {
		p, ok := n.props[name]
		if !ok {
			if n.closed {
				return nil // required and forbidden: the library says why
			}
			p = &fastProp{req: -1} // required, any value
			n.props[name] = p
		}
		if p.req < 0 {
			p.req = n.required
			n.required++
		}
	}
	return n
}

func compileArray(s *jsonschema.Schema, n *fastCheck) *fastCheck {
	n.kind = kindArray
	if s.Items2020 != nil {
		n.items = compileFast(s.Items2020)
	}
	if s.MinItems != nil {
		n.minItems = *s.MinItems
	}
	if s.UniqueItems {
		if n.items == nil || n.items.kind != kindString {
			return nil
		}
		n.unique = true
	}
	return n
}

// compileNumber is the native check of a number or integer schema whose
// bounds are integers a float64 holds exactly: then comparing the float64
// the library is given is the same as comparing the decimal it prints.
func compileNumber(s *jsonschema.Schema, n *fastCheck, integer bool) *fastCheck {
	n.kind, n.integer = kindNumber, integer
	for _, b := range []struct {
		r   *big.Rat
		out **float64
	}{{s.Minimum, &n.minimum}, {s.Maximum, &n.maximum}} {
		if b.r == nil {
			continue
		}
		if !b.r.IsInt() || b.r.Num().BitLen() > 53 {
			return nil
		}
		f, _ := b.r.Float64()
		*b.out = &f
	}
	return n
}

// classPattern is the shape of pattern byteClass turns into a table.
var classPattern = regexp.MustCompile(`^\^\[((?:[A-Za-z0-9]-[A-Za-z0-9]|[A-Za-z0-9_])*)(-?)\]\{(\d+),(\d+)\}\$$`)

// byteClass turns ^[class]{min,max}$, where class is ranges of letters
// and digits and the characters _ and - (last), into a table; nil for any
// other pattern.
func byteClass(pattern string) (*[256]bool, int, int) {
	m := classPattern.FindStringSubmatch(pattern)
	if m == nil {
		return nil, 0, 0
	}
	lo, err1 := strconv.Atoi(m[3])
	hi, err2 := strconv.Atoi(m[4])
	if err1 != nil || err2 != nil || lo > hi {
		return nil, 0, 0
	}
	var t [256]bool
	class := m[1]
	for i := 0; i < len(class); i++ {
		if i+2 < len(class) && class[i+1] == '-' {
			for c := class[i]; c <= class[i+2]; c++ {
				t[c] = true
			}
			i += 2
			continue
		}
		t[class[i]] = true
	}
	if m[2] == "-" {
		t['-'] = true
	}
	return &t, lo, hi
}

// hasOtherKeyword reports whether s uses a keyword beyond those the native
// checks implement (type, enum, format and the string, number, object and
// array keywords they read).
func hasOtherKeyword(s *jsonschema.Schema) bool {
	return s.Bool != nil || s.Ref != nil || s.RecursiveRef != nil || s.DynamicRef != nil ||
		s.Const != nil || s.Not != nil || len(s.AllOf)+len(s.AnyOf)+len(s.OneOf) > 0 || s.If != nil ||
		s.Then != nil || s.Else != nil || s.MaxProperties != nil || s.MinProperties != nil ||
		s.PropertyNames != nil || len(s.PatternProperties) > 0 || len(s.Dependencies) > 0 ||
		len(s.DependentRequired) > 0 || len(s.DependentSchemas) > 0 || s.UnevaluatedProperties != nil ||
		s.MaxItems != nil || s.Contains != nil || s.MinContains != nil || s.MaxContains != nil || s.Items != nil ||
		s.AdditionalItems != nil || len(s.PrefixItems) > 0 || s.UnevaluatedItems != nil ||
		(assertContent && (s.ContentEncoding != nil || s.ContentMediaType != nil || s.ContentSchema != nil)) ||
		s.ExclusiveMaximum != nil || s.ExclusiveMinimum != nil || s.MultipleOf != nil || len(s.Extensions) > 0
}
