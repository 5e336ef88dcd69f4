package resources

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
)

// computationConfig is the config of a computation resource: it has no
// fields yet, and decoding into it refuses any, so a typo is not ignored.
type computationConfig struct{}

type computation struct {
	base
	maxLen, maxDepth int
}

func buildComputation(b base, raw json.RawMessage, opts Options) (*computation, error) {
	if err := decodeConfig(raw, &computationConfig{}); err != nil {
		return nil, err
	}
	params, err := json.Marshal(map[string]any{
		"type": "object",
		"properties": map[string]any{
			"expression": map[string]any{
				"type":      "string",
				"minLength": 1,
				"maxLength": opts.MaxExpressionLength,
				"description": "Arithmetic over numbers and variables: + - * / % ^ (power), parentheses, " +
					"functions " + strings.Join(functionNames(), ", ") + ". " +
					"npv(rate, cf0, cf1, …) discounts cf_t by (1+rate)^t; roi(gain, cost) = (gain-cost)/cost.",
			},
			"variables": map[string]any{
				"type":                 "object",
				"description":          "Values of the names used in the expression.",
				"propertyNames":        map[string]any{"pattern": "^[A-Za-z_][A-Za-z0-9_]*$"},
				"additionalProperties": map[string]any{"type": "number"},
			},
		},
		"required":             []string{"expression"},
		"additionalProperties": false,
	})
	if err != nil {
		return nil, fmt.Errorf("%w: parameters: %w", ErrConfig, err)
	}
	b.params = params
	if b.schema, err = compileArgSchema(params, opts.MaxArgumentBytes); err != nil {
		return nil, err
	}
	return &computation{base: b, maxLen: opts.MaxExpressionLength, maxDepth: opts.MaxExpressionDepth}, nil
}

type computationArgs struct {
	Expression string             `json:"expression"`
	Variables  map[string]float64 `json:"variables"`
}

// Call implements Tool: it evaluates the expression and returns the value
// (at most six decimals).
func (c *computation) Call(ctx context.Context, args json.RawMessage) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", err
	}
	if _, err := c.schema.check(args); err != nil {
		return "", err
	}
	var a computationArgs
	if err := decodeArgs(args, &a); err != nil {
		return "", err
	}
	v, err := evaluate(a.Expression, a.Variables, c.maxLen, c.maxDepth)
	if err != nil {
		return "", err
	}
	return formatNumber(v), nil
}
