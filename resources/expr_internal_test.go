package resources

import (
	"errors"
	"math"
	"strings"
	"testing"
)

// FuzzEvaluate holds the parser to three promises on any input: it does not
// panic, every error wraps ErrArguments, and every value is finite. Run it
// with go test -fuzz FuzzEvaluate ./resources/; without -fuzz it runs the
// seeds.
func FuzzEvaluate(f *testing.F) {
	for _, seed := range []string{
		"", "1", "1 + 2 * 3", "-(2 ^ -3) % 5", "2^3^2", "npv(0.1, -1000, 500, 500)",
		"round(x, 2)", "roi(gain, x)", "max(1,)", "((((", "))))", "1e400", "1e-400",
		".", "1..2", "1e", "x y", "sqrt(-1)", "avg()", "min(1, 2, 3)", "ln(0)",
		"-" + strings.Repeat("(", 100) + "1", strings.Repeat("-", 200) + "1",
		"\x00", "é", "1 × 2", "sum(" + strings.Repeat("1,", 50) + "1)",
	} {
		f.Add(seed)
	}
	vars := map[string]float64{"x": 2, "gain": 150}
	f.Fuzz(func(t *testing.T, src string) {
		v, err := evaluate(src, vars, DefaultMaxExpressionLength, DefaultMaxExpressionDepth)
		if err != nil {
			if !errors.Is(err, ErrArguments) {
				t.Fatalf("evaluate(%q) error %v does not wrap ErrArguments", src, err)
			}
			return
		}
		if math.IsNaN(v) || math.IsInf(v, 0) {
			t.Fatalf("evaluate(%q) = %v, not finite", src, v)
		}
		_ = formatNumber(v)
	})
}

func TestEvaluateDepthBoundsStack(t *testing.T) {
	// Far deeper than the bound, so an unbounded parser would recurse
	// 100k levels; this one stops at the limit.
	src := strings.Repeat("(", 100000) + "1" + strings.Repeat(")", 100000)
	_, err := evaluate(src, nil, len(src), DefaultMaxExpressionDepth)
	if !errors.Is(err, ErrArguments) || !strings.Contains(err.Error(), "nested more than") {
		t.Fatalf("evaluate = %v, want the depth error", err)
	}
}

func TestFormatNumber(t *testing.T) {
	for _, tt := range []struct {
		v    float64
		want string
	}{
		{0, "0"}, {math.Copysign(0, -1), "0"}, {1, "1"}, {-1.5, "-1.5"},
		{1.0 / 3, "0.333333"}, {1e-6, "0.000001"}, {4e-7, "4e-07"},
		{-4e-7, "-4e-07"}, {1e20, "100000000000000000000"}, {1e21, "1e+21"},
		{0.1 + 0.2, "0.3"}, {2.0000004, "2"},
	} {
		if got := formatNumber(tt.v); got != tt.want {
			t.Errorf("formatNumber(%v) = %q, want %q", tt.v, got, tt.want)
		}
	}
}
