package events

import (
	"math"
	"math/big"
	"regexp"
	"strconv"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

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
