package resources_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/cmem/cmem/resources"
)

func TestComputation(t *testing.T) {
	tool := mustBuild(t, "computation", "")
	tests := []struct{ expr, vars, want string }{
		{"1 + 2 * 3", "", "7"},
		{"(1 + 2) * 3", "", "9"},
		{"10 / 4", "", "2.5"},
		{"1 / 3", "", "0.333333"},
		{"2 / 3", "", "0.666667"},
		{"7 % 3", "", "1"},
		{"-7 % 3", "", "-1"},
		{"2 ^ 10", "", "1024"},
		{"2 ^ 3 ^ 2", "", "512"},
		{"-2 ^ 2", "", "-4"},
		{"2 ^ -1", "", "0.5"},
		{"--3", "", "3"},
		{"+3 - -3", "", "6"},
		{"1e3 + .5 + 2.", "", "1002.5"},
		{"1.5E-2", "", "0.015"},
		{"1e-9", "", "1e-09"},
		{"1e22", "", "1e+22"},
		{"123456789012", "", "123456789012"},
		{"0.1 + 0.2", "", "0.3"},
		{"-0 * 1", "", "0"},
		{"sqrt(16) + abs(-2)", "", "6"},
		{"ln(exp(2))", "", "2"},
		{"log10(1000)", "", "3"},
		{"round(2.5)", "", "3"},
		{"round(-2.5)", "", "-3"},
		{"round(3.14159, 2)", "", "3.14"},
		{"round(1234, -2)", "", "1200"},
		{"round(1e300, 15)", "", "1e+300"},
		{"min(3, 1, 2) + max(3, 1, 2)", "", "4"},
		{"sum(1, 2, 3, 4)", "", "10"},
		{"avg(1, 2, 3, 4)", "", "2.5"},
		{"MAX(1, 2)", "", "2"},
		{"npv(0.1, -1000, 500, 500, 500)", "", "243.425995"},
		{"npv(0, -100, 50, 50)", "", "0"},
		{"roi(1250, 1000)", "", "0.25"},
		{"price * qty * (1 - discount)", `{"price": 19.99, "qty": 3, "discount": 0.1}`, "53.973"},
		{"max(x_1, X_2)", `{"x_1": -1, "X_2": -2}`, "-1"},
		{" \t1\n+\r1 ", "", "2"},
	}
	for _, tt := range tests {
		t.Run(tt.expr, func(t *testing.T) {
			args := map[string]any{"expression": tt.expr}
			if tt.vars != "" {
				args["variables"] = json.RawMessage(tt.vars)
			}
			raw, _ := json.Marshal(args)
			got, err := tool.Call(context.Background(), raw)
			if err != nil {
				t.Fatalf("Call: %v", err)
			}
			if got != tt.want {
				t.Fatalf("%s = %s, want %s", tt.expr, got, tt.want)
			}
		})
	}
}

func TestComputationErrors(t *testing.T) {
	tool := mustBuildOpts(t, "computation", "", resources.Options{MaxExpressionLength: 200, MaxExpressionDepth: 10})
	tests := []struct{ name, args, wantMsg string }{
		{"division by zero", `{"expression":"1 / (2 - 2)"}`, "division by zero at offset 2"},
		{"modulo by zero", `{"expression":"5 % 0"}`, "division by zero"},
		{"roi with zero cost", `{"expression":"roi(5, 0)"}`, "division by zero"},
		{"unknown variable", `{"expression":"a + b","variables":{"a":1}}`, `unknown variable "b" at offset 4`},
		{"unknown function", `{"expression":"system(1)"}`, `unknown function "system"`},
		{"function name alone", `{"expression":"sqrt + 1"}`, `unknown variable "sqrt"`},
		{"syntax: dangling operator", `{"expression":"1 +"}`, "unexpected end"},
		{"syntax: unbalanced", `{"expression":"(1 + 2"}`, "unexpected end"},
		{"syntax: extra paren", `{"expression":"1 + 2)"}`, `unexpected ")" at offset 5`},
		{"syntax: juxtaposition", `{"expression":"2 3"}`, `unexpected "3"`},
		{"syntax: implicit product", `{"expression":"2x"}`, "malformed number"},
		{"syntax: two dots", `{"expression":"1.2.3"}`, "malformed number"},
		{"syntax: bare dot", `{"expression":"."}`, "malformed number"},
		{"syntax: bad exponent", `{"expression":"1e+"}`, "malformed number"},
		{"syntax: character", `{"expression":"1 & 2"}`, `unexpected character '&'`},
		{"syntax: unicode", `{"expression":"1 × 2"}`, `unexpected character '×'`},
		{"syntax: empty argument", `{"expression":"max(1,)"}`, `unexpected ")"`},
		{"syntax: missing comma", `{"expression":"max(1 2)"}`, `unexpected "2"`},
		{"blank", `{"expression":"   "}`, "empty"},
		{"arity", `{"expression":"sqrt(1, 2)"}`, "sqrt takes 1 argument, not 2"},
		{"arity min", `{"expression":"min()"}`, "at least 1 arguments"},
		{"arity npv", `{"expression":"npv(0.1)"}`, "at least 2"},
		{"arity round", `{"expression":"round(1, 2, 3)"}`, "1 to 2 arguments"},
		{"round digits", `{"expression":"round(1, 0.5)"}`, "digits"},
		{"npv rate", `{"expression":"npv(-1, 1, 2)"}`, "rate must be greater than -1"},
		{"not finite: sqrt", `{"expression":"sqrt(-1)"}`, "not a finite number"},
		{"not finite: ln", `{"expression":"ln(0)"}`, "not a finite number"},
		{"not finite: overflow", `{"expression":"10 ^ 400"}`, "not a finite number"},
		{"number out of range", `{"expression":"1e400"}`, "out of range"},
		{"too deep: parentheses", `{"expression":"((((((((((((1))))))))))))"}`, "nested more than 10 deep"},
		{"too deep: signs", `{"expression":"-----------1"}`, "nested more than 10 deep"},
		{"too long", `{"expression":"` + strings.Repeat("1+", 100) + `1"}`, "maxLength"},
		{"too long in bytes", `{"expression":"` + strings.Repeat("é", 150) + `"}`, "300 bytes, more than the limit of 200"},
		{"missing expression", `{"variables":{}}`, "expression"},
		{"empty expression", `{"expression":""}`, "/expression"},
		{"variable not a number", `{"expression":"a","variables":{"a":"1"}}`, "/variables/a"},
		{"variable name", `{"expression":"1","variables":{"a-b":1}}`, "'a-b' does not match"},
		{"variable out of range", `{"expression":"a","variables":{"a":1e400}}`, "1e400"},
		{"extra argument", `{"expression":"1","precision":2}`, "precision"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := tool.Call(context.Background(), json.RawMessage(tt.args))
			if !errors.Is(err, resources.ErrArguments) || !strings.Contains(err.Error(), tt.wantMsg) {
				t.Fatalf("Call(%s) = %q, %v; want ErrArguments mentioning %q", tt.args, out, err, tt.wantMsg)
			}
		})
	}
}

func TestComputationParametersDescribeFunctions(t *testing.T) {
	p := string(mustBuild(t, "computation", "").Parameters())
	for _, fn := range []string{"npv", "roi", "round", "log10"} {
		if !strings.Contains(p, fn) {
			t.Errorf("Parameters do not mention %s: %s", fn, p)
		}
	}
}
