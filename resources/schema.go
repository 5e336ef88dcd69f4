package resources

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/cmem/cmem/schemas"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

const argsSchemaURL = "urn:cmem:resource:parameters"

// argSchema checks a call's arguments against a tool's Parameters.
type argSchema struct {
	schema   *jsonschema.Schema
	maxBytes int
}

// noLoader refuses every external reference: the schema of an http resource
// comes from a registration, and the library's default loader would read
// any file:// URL it names on the server.
type noLoader struct{}

func (noLoader) Load(url string) (any, error) {
	return nil, fmt.Errorf("external schema references are not allowed (%s)", url)
}

// compileArgSchema compiles raw (a JSON Schema for an arguments object).
// Errors wrap ErrConfig. The schema must describe an object, because that
// is what function calling passes.
func compileArgSchema(raw json.RawMessage, maxArgBytes int) (*argSchema, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return nil, fmt.Errorf("%w: parameters: not JSON: %w", ErrConfig, err)
	}
	obj, ok := doc.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("%w: parameters must be a JSON Schema object", ErrConfig)
	}
	if obj["type"] != "object" {
		return nil, fmt.Errorf("%w: parameters must have \"type\": \"object\"", ErrConfig)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.UseLoader(noLoader{})
	if err := c.AddResource(argsSchemaURL, doc); err != nil {
		return nil, fmt.Errorf("%w: parameters: %w", ErrConfig, err)
	}
	sch, err := c.Compile(argsSchemaURL)
	if err != nil {
		return nil, fmt.Errorf("%w: parameters: %w", ErrConfig, err)
	}
	return &argSchema{schema: sch, maxBytes: maxArgBytes}, nil
}

// check validates args and returns them decoded (numbers as json.Number).
// Empty args are the empty object, which models send for tools without
// required parameters. Errors wrap ErrArguments.
func (s *argSchema) check(args json.RawMessage) (any, error) {
	if len(args) > s.maxBytes {
		return nil, fmt.Errorf("%w: %d bytes, more than the limit of %d", ErrArguments, len(args), s.maxBytes)
	}
	if len(bytes.TrimSpace(args)) == 0 {
		args = json.RawMessage("{}")
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(args))
	if err != nil {
		return nil, fmt.Errorf("%w: not JSON: %w", ErrArguments, err)
	}
	if err := s.schema.Validate(doc); err != nil {
		return nil, fmt.Errorf("%w: %s", ErrArguments, schemas.Describe(err))
	}
	return doc, nil
}
