// Package resources turns registered resources into tools an agent can
// call: knowledge_base (search over its documents), http (a configured URL
// called with schema-checked JSON arguments) and computation (arithmetic
// and cost-benefit expressions, the paper's strategic_computation).
package resources

import (
	"context"
	"encoding/json"
	"errors"
)

// Tool is a callable resource.
type Tool interface {
	// ID is the resource id.
	ID() string
	// Description is shown to the agent.
	Description() string
	// Parameters is the JSON Schema of Call's arguments object.
	Parameters() json.RawMessage
	// Call runs the tool. Arguments that fail Parameters are an error
	// wrapping ErrArguments; the result is text for the agent.
	Call(ctx context.Context, args json.RawMessage) (string, error)
}

// Errors of Call and Build.
var (
	ErrArguments   = errors.New("resources: invalid arguments")
	ErrUnsupported = errors.New("resources: unsupported resource kind")
	ErrConfig      = errors.New("resources: invalid resource configuration")
)
