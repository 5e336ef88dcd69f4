package resources

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
)

// Kinds that Build turns into tools.
const (
	KindKnowledgeBase = "knowledge_base"
	KindHTTP          = "http"
	KindComputation   = "computation"
)

// Build turns a registered resource into a Tool. config is the JSON object
// of the kind-specific fields of the registration (events.ResourceRegistered
// Config); null or empty means {}. Errors wrap ErrUnsupported for a kind
// cmem does not implement and ErrConfig for a configuration it refuses,
// naming the field.
//
// A knowledge_base with a "path" reads its files here, once: the tool
// serves the documents as they were when it was built.
func Build(id, kind, description string, config json.RawMessage, opts Options) (Tool, error) {
	opts = opts.WithDefaults()
	if err := opts.Validate(); err != nil {
		return nil, fmt.Errorf("%w: options: %w", ErrConfig, err)
	}
	if id == "" {
		return nil, fmt.Errorf("%w: id is required", ErrConfig)
	}
	b := base{id: id, description: description}
	var (
		t   Tool
		err error
	)
	switch kind {
	case KindKnowledgeBase:
		t, err = buildKnowledgeBase(b, config, opts)
	case KindHTTP:
		t, err = buildHTTP(b, config, opts)
	case KindComputation:
		t, err = buildComputation(b, config, opts)
	case "forecast_model", "comparator":
		// The paper names these, but a fake model would give agents
		// confident wrong answers; a real one is an external service.
		return nil, fmt.Errorf("%w: %q is not built in; register the model as an external service with kind %q",
			ErrUnsupported, kind, KindHTTP)
	default:
		return nil, fmt.Errorf("%w: %q (supported: %s, %s, %s)",
			ErrUnsupported, kind, KindKnowledgeBase, KindHTTP, KindComputation)
	}
	if err != nil {
		return nil, fmt.Errorf("resource %s (%s): %w", id, kind, err)
	}
	return t, nil
}

// base holds what every tool has; the kinds embed it.
type base struct {
	id          string
	description string
	params      json.RawMessage
	schema      *argSchema
}

// ID implements Tool.
func (b *base) ID() string { return b.id }

// Description implements Tool.
func (b *base) Description() string { return b.description }

// Parameters implements Tool. It returns a copy so callers cannot change
// the schema the arguments are checked against.
func (b *base) Parameters() json.RawMessage { return bytes.Clone(b.params) }

// decodeConfig decodes the config object strictly into dst: an unknown or
// mistyped field is an ErrConfig naming it, so a typo in a registration
// fails loudly instead of silently taking a default.
func decodeConfig(raw json.RawMessage, dst any) error {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return nil
	}
	if raw[0] != '{' {
		return fmt.Errorf("%w: config must be a JSON object", ErrConfig)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(dst); err != nil {
		return fmt.Errorf("%w: config: %s", ErrConfig, describeJSONError(err))
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return fmt.Errorf("%w: config: unexpected data after the object", ErrConfig)
	}
	return nil
}

// describeJSONError rewords encoding/json errors so they name the JSON
// field rather than the Go type behind it.
func describeJSONError(err error) string {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) && te.Field != "" {
		return fmt.Sprintf("field %q: want %s, not a JSON %s", te.Field, jsonKind(te.Type), te.Value)
	}
	msg := err.Error()
	if f, ok := strings.CutPrefix(msg, "json: unknown field "); ok {
		return "unknown field " + f
	}
	return strings.TrimPrefix(msg, "json: ")
}

func jsonKind(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "an integer"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "a boolean"
	case reflect.Slice, reflect.Array:
		return "an array"
	default:
		return "an object"
	}
}

// decodeArgs decodes arguments that already passed the schema.
func decodeArgs(args json.RawMessage, dst any) error {
	if len(bytes.TrimSpace(args)) == 0 {
		return nil
	}
	if err := json.Unmarshal(args, dst); err != nil {
		return fmt.Errorf("%w: %s", ErrArguments, describeJSONError(err))
	}
	return nil
}
