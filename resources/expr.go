package resources

import (
	"fmt"
	"math"
	"strings"
)

// evaluate computes src, an arithmetic expression, by recursive descent:
//
//	expr    = term { ("+" | "-") term }
//	term    = unary { ("*" | "/" | "%") unary }
//	unary   = ("+" | "-") unary | power
//	power   = primary [ "^" unary ]
//	primary = number | name | name "(" [ expr { "," expr } ] ")" | "(" expr ")"
//
// so "^" binds tighter than a sign and associates to the right
// (-2^2 = -4, 2^3^2 = 512). It evaluates while it parses: there is no code
// to run, only numbers, vars and the functions of the table. Every error
// wraps ErrArguments and gives the byte offset, since the agent that wrote
// the expression has to fix it.
func evaluate(src string, vars map[string]float64, maxLen, maxDepth int) (float64, error) {
	if len(src) > maxLen {
		return 0, fmt.Errorf("%w: expression: %d bytes, more than the limit of %d", ErrArguments, len(src), maxLen)
	}
	p := &parser{src: src, vars: vars, maxDepth: maxDepth}
	if err := p.next(); err != nil {
		return 0, err
	}
	if p.tok.kind == tokEOF {
		return 0, fmt.Errorf("%w: expression is empty", ErrArguments)
	}
	v, err := p.expr()
	if err != nil {
		return 0, err
	}
	if p.tok.kind != tokEOF {
		return 0, p.unexpected()
	}
	return v, nil
}

type parser struct {
	src      string
	off      int // where the scanner continues
	tok      token
	vars     map[string]float64
	depth    int
	maxDepth int
}

func (p *parser) errorf(pos int, format string, args ...any) error {
	return fmt.Errorf("%w: expression: %s at offset %d", ErrArguments, fmt.Sprintf(format, args...), pos)
}

func (p *parser) unexpected() error {
	if p.tok.kind == tokEOF {
		return p.errorf(p.tok.pos, "unexpected end")
	}
	return p.errorf(p.tok.pos, "unexpected %q", p.tok.text)
}

func (p *parser) is(punct string) bool { return p.tok.kind == tokPunct && p.tok.text == punct }

func (p *parser) expr() (float64, error) {
	v, err := p.term()
	for err == nil && (p.is("+") || p.is("-")) {
		op := p.tok
		if err = p.next(); err != nil {
			break
		}
		var r float64
		if r, err = p.term(); err != nil {
			break
		}
		if op.text == "+" {
			v, err = p.finite(v+r, op.pos)
		} else {
			v, err = p.finite(v-r, op.pos)
		}
	}
	return v, err
}

func (p *parser) term() (float64, error) {
	v, err := p.unary()
	for err == nil && (p.is("*") || p.is("/") || p.is("%")) {
		op := p.tok
		if err = p.next(); err != nil {
			break
		}
		var r float64
		if r, err = p.unary(); err != nil {
			break
		}
		switch {
		case op.text == "*":
			v, err = p.finite(v*r, op.pos)
		case r == 0:
			err = p.errorf(op.pos, "division by zero")
		case op.text == "/":
			v, err = p.finite(v/r, op.pos)
		default:
			v, err = p.finite(math.Mod(v, r), op.pos)
		}
	}
	return v, err
}

// unary is where every kind of nesting passes (signs, powers, parentheses
// and arguments), so it is where depth is bounded: the parser's stack
// grows with the input, and the input comes from a model.
func (p *parser) unary() (float64, error) {
	p.depth++
	defer func() { p.depth-- }()
	if p.depth > p.maxDepth {
		return 0, p.errorf(p.tok.pos, "nested more than %d deep", p.maxDepth)
	}
	if p.is("-") || p.is("+") {
		neg := p.is("-")
		if err := p.next(); err != nil {
			return 0, err
		}
		v, err := p.unary()
		if neg {
			v = -v
		}
		return v, err
	}
	return p.power()
}

func (p *parser) power() (float64, error) {
	v, err := p.primary()
	if err != nil || !p.is("^") {
		return v, err
	}
	pos := p.tok.pos
	if err := p.next(); err != nil {
		return 0, err
	}
	r, err := p.unary()
	if err != nil {
		return 0, err
	}
	return p.finite(math.Pow(v, r), pos)
}

func (p *parser) primary() (float64, error) {
	t := p.tok
	switch {
	case t.kind == tokNum:
		return t.num, p.next()
	case t.kind == tokName:
		if err := p.next(); err != nil {
			return 0, err
		}
		if p.is("(") {
			return p.call(t)
		}
		v, ok := p.vars[t.text]
		if !ok {
			return 0, p.errorf(t.pos, "unknown variable %q", t.text)
		}
		return v, nil
	case p.is("("):
		if err := p.next(); err != nil {
			return 0, err
		}
		v, err := p.expr()
		if err != nil {
			return 0, err
		}
		if !p.is(")") {
			return 0, p.unexpected()
		}
		return v, p.next()
	default:
		return 0, p.unexpected()
	}
}

// call parses the arguments of the function named by name; the current
// token is its "(".
func (p *parser) call(name token) (float64, error) {
	fn, ok := functions[strings.ToLower(name.text)]
	if !ok {
		return 0, p.errorf(name.pos, "unknown function %q", name.text)
	}
	if err := p.next(); err != nil {
		return 0, err
	}
	var args []float64
	for !p.is(")") {
		if len(args) > 0 {
			if !p.is(",") {
				return 0, p.unexpected()
			}
			if err := p.next(); err != nil {
				return 0, err
			}
		}
		v, err := p.expr()
		if err != nil {
			return 0, err
		}
		args = append(args, v)
	}
	if err := p.next(); err != nil {
		return 0, err
	}
	if len(args) < fn.minArgs || fn.maxArgs >= 0 && len(args) > fn.maxArgs {
		return 0, p.errorf(name.pos, "%s takes %s, not %d", name.text, fn.arity(), len(args))
	}
	v, err := fn.eval(args)
	if err != nil {
		return 0, p.errorf(name.pos, "%s: %v", name.text, err)
	}
	return p.finite(v, name.pos)
}

// finite refuses NaN and infinities, which would otherwise flow on and
// print as an answer (sqrt(-1), ln(0), 10^400).
func (p *parser) finite(v float64, pos int) (float64, error) {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, p.errorf(pos, "result is not a finite number")
	}
	return v, nil
}
