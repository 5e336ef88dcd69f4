package resources

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
)

// function is an entry of the evaluator's function table; maxArgs < 0
// means any number from minArgs up.
type function struct {
	minArgs, maxArgs int
	eval             func(args []float64) (float64, error)
}

func (f function) arity() string {
	switch {
	case f.maxArgs < 0:
		return fmt.Sprintf("at least %d arguments", f.minArgs)
	case f.minArgs == 1 && f.maxArgs == 1:
		return "1 argument"
	case f.minArgs == f.maxArgs:
		return fmt.Sprintf("%d arguments", f.minArgs)
	default:
		return fmt.Sprintf("%d to %d arguments", f.minArgs, f.maxArgs)
	}
}

func unary(f func(float64) float64) function {
	return function{1, 1, func(a []float64) (float64, error) { return f(a[0]), nil }}
}

// functions are all the names an expression may call (case-insensitive,
// since models write NPV as often as npv).
var functions = map[string]function{
	"sqrt":  unary(math.Sqrt),
	"ln":    unary(math.Log),
	"log10": unary(math.Log10),
	"exp":   unary(math.Exp),
	"abs":   unary(math.Abs),
	"round": {1, 2, round},
	"min":   {1, -1, func(a []float64) (float64, error) { return fold(a, math.Min), nil }},
	"max":   {1, -1, func(a []float64) (float64, error) { return fold(a, math.Max), nil }},
	"sum":   {1, -1, func(a []float64) (float64, error) { return sum(a), nil }},
	"avg":   {1, -1, func(a []float64) (float64, error) { return sum(a) / float64(len(a)), nil }},
	"npv":   {2, -1, npv},
	"roi":   {2, 2, roi},
}

// functionNames lists the functions for the agent, in a stable order.
func functionNames() []string {
	return slices.Sorted(maps.Keys(functions))
}

func fold(a []float64, f func(x, y float64) float64) float64 {
	v := a[0]
	for _, x := range a[1:] {
		v = f(v, x)
	}
	return v
}

func sum(a []float64) float64 {
	var s float64
	for _, x := range a {
		s += x
	}
	return s
}

// round(x) rounds half away from zero; round(x, d) to d decimal places
// (negative d rounds to tens, hundreds, …).
func round(a []float64) (float64, error) {
	if len(a) == 1 {
		return math.Round(a[0]), nil
	}
	d := a[1]
	if d != math.Trunc(d) || d < -15 || d > 15 {
		return 0, errors.New("digits must be a whole number in -15..15")
	}
	p := math.Pow10(int(d))
	scaled := a[0] * p
	if math.IsInf(scaled, 0) {
		return a[0], nil // too large to have digits that far right
	}
	return math.Round(scaled) / p, nil
}

// npv(rate, cf0, cf1, …) is the net present value of cash flows at the
// ends of periods 0, 1, …: Σ cf_t / (1+rate)^t. Unlike a spreadsheet's NPV,
// cf0 is not discounted: it is the investment made now.
func npv(a []float64) (float64, error) {
	rate := a[0]
	if rate <= -1 {
		return 0, errors.New("rate must be greater than -1")
	}
	var v float64
	for t, cf := range a[1:] {
		v += cf / math.Pow(1+rate, float64(t))
	}
	return v, nil
}

// roi(gain, cost) is the return on investment as a fraction:
// (gain − cost) / cost, so 0.25 is 25 %.
func roi(a []float64) (float64, error) {
	gain, cost := a[0], a[1]
	if cost == 0 {
		return 0, errors.New("division by zero (cost is 0)")
	}
	return (gain - cost) / cost, nil
}

// formatNumber prints v with at most six decimals and no trailing zeros,
// which is what an answer about money or rates needs; numbers too small
// or too large for that get six significant digits in exponent form.
func formatNumber(v float64) string {
	if v == 0 {
		return "0"
	}
	if a := math.Abs(v); a < 5e-7 || a >= 1e21 {
		return strconv.FormatFloat(v, 'g', 6, 64)
	}
	s := strconv.FormatFloat(v, 'f', 6, 64)
	s = strings.TrimRight(s, "0")
	s = strings.TrimSuffix(s, ".")
	if s == "-0" {
		return "0"
	}
	return s
}
