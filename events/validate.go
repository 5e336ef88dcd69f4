package events

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"strings"
	"sync"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/cmem/cmem/schemas"
)

const envelopeSchemaID = "https://cmem.dev/schemas/envelope.v1.json"

// Validator checks raw events against the embedded JSON Schemas. It is safe
// for concurrent use; the zero value is not usable, call NewValidator.
type Validator struct {
	envelope *jsonschema.Schema
	data     map[specKey]*jsonschema.Schema
	fast     map[specKey]*fastCheck
}

var (
	defaultValidator     *Validator
	defaultValidatorErr  error
	defaultValidatorOnce sync.Once
)

// DefaultValidator returns the process-wide validator, compiled once.
func DefaultValidator() (*Validator, error) {
	defaultValidatorOnce.Do(func() { defaultValidator, defaultValidatorErr = NewValidator() })
	return defaultValidator, defaultValidatorErr
}

// NewValidator compiles the envelope schema and the schema of every
// registered (type, version). A registered type without a schema file is an
// error: the schema is the contract, the Go type only follows it.
func NewValidator() (*Validator, error) {
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	if assertContent {
		c.AssertContent()
	}
	err := fs.WalkDir(schemas.FS, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".json") {
			return err
		}
		raw, err := schemas.FS.ReadFile(path)
		if err != nil {
			return err
		}
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
		if err != nil {
			return fmt.Errorf("schema %s: %w", path, err)
		}
		return c.AddResource("https://cmem.dev/schemas/"+path, doc)
	})
	if err != nil {
		return nil, fmt.Errorf("events: load schemas: %w", err)
	}
	v := &Validator{data: make(map[specKey]*jsonschema.Schema, len(specs)), fast: make(map[specKey]*fastCheck, len(specs))}
	if v.envelope, err = c.Compile(envelopeSchemaID); err != nil {
		return nil, fmt.Errorf("events: compile envelope schema: %w", err)
	}
	for k, s := range specs {
		sch, err := c.Compile("https://cmem.dev/schemas/" + s.schemaFile())
		if err != nil {
			return nil, fmt.Errorf("events: compile schema of %s v%d: %w", k.typ, k.version, err)
		}
		v.data[k] = sch
		v.fast[k] = compileFast(sch)
	}
	return v, nil
}

// Parse checks raw against the envelope schema and the schema of its type and
// version, and returns the decoded envelope. Errors wrap ErrInvalid or
// ErrUnknownType and say what is wrong. It is ParseEnvelope then CheckData.
func (v *Validator) Parse(raw []byte) (Envelope, error) {
	// One pass when it can: ParseEnvelopeChecking's envelope and verdict
	// are ParseEnvelope's, and checked data is data CheckData accepts
	// (TestEnvelopeCheckingAgrees).
	e, checked, err := v.ParseEnvelopeChecking(raw)
	if err != nil {
		return Envelope{}, err
	}
	if checked {
		return e, nil
	}
	return e, v.CheckData(e)
}

// ParseEnvelope checks and decodes the envelope only. A consumer that
// splits the work across goroutines calls CheckData on the result before
// it uses the data.
func (v *Validator) ParseEnvelope(raw []byte) (Envelope, error) {
	return decodeEnvelope(raw)
}

// ParseEnvelopeChecking is ParseEnvelope that also checks the data
// against its schema in the same pass when it can: checked means CheckData
// would return nil for the result, so a consumer that uses these very
// bytes need not call it. Unchecked data still needs CheckData.
func (v *Validator) ParseEnvelopeChecking(raw []byte) (e Envelope, checked bool, err error) {
	if e, checked, ok := fastEnvelopeChecked(raw, v.fast); ok {
		return e, checked, nil
	}
	e, err = genericEnvelope(raw)
	return e, false, err
}

// CheckData checks e's data against the schema of its type and version.
func (v *Validator) CheckData(e Envelope) error {
	sch, ok := v.data[specKey{e.Type, e.SchemaVersion}]
	if !ok {
		return fmt.Errorf("%w: %s v%d", ErrUnknownType, e.Type, e.SchemaVersion)
	}
	if v.fast[specKey{e.Type, e.SchemaVersion}].valid(e.Data) {
		return nil
	}
	// Not certainly valid: the library has the verdict and says why.
	return schemaCheck(sch, e)
}

// schemaCheck checks e's data with the schema library alone.
func schemaCheck(sch *jsonschema.Schema, e Envelope) error {
	// jsonv2 decodes numbers as float64, which the validator accepts; it is
	// several times cheaper than the validator's own json.Number decoding.
	var data any
	if err := jsonv2.Unmarshal(e.Data, &data); err != nil {
		return fmt.Errorf("%w: %s data: %w", ErrInvalid, e.Type, err)
	}
	if err := sch.Validate(data); err != nil {
		return fmt.Errorf("%w: %s v%d data: %s", ErrInvalid, e.Type, e.SchemaVersion, schemas.Describe(err))
	}
	return nil
}

// EnvelopeSchemaCheck validates raw against the envelope JSON Schema itself.
// Parse uses a faster equivalent check; this one exists so tests can hold the
// two to the same verdicts.
func (v *Validator) EnvelopeSchemaCheck(raw []byte) error {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return fmt.Errorf("%w: not JSON: %w", ErrInvalid, err)
	}
	if err := v.envelope.Validate(doc); err != nil {
		return fmt.Errorf("%w: envelope: %s", ErrInvalid, schemas.Describe(err))
	}
	return nil
}

// Marshal checks e against its schemas and returns its wire form. Publishers
// call it so that nothing invalid is ever written by cmem itself. An
// envelope the fast path can vouch for (marshalKnown) is checked on its Go
// fields rather than encoded and decoded again; its bytes and verdict are
// those of marshalChecked, which handles everything else.
func (v *Validator) Marshal(e Envelope) ([]byte, error) {
	if raw, ok := v.marshalKnown(e); ok {
		return raw, nil
	}
	return v.marshalChecked(e)
}

// marshalChecked is Marshal by the book: encode with encoding/json, then
// parse the result as a consumer reading it off the log would.
func (v *Validator) marshalChecked(e Envelope) ([]byte, error) {
	raw, err := json.Marshal(e)
	if err != nil {
		return nil, fmt.Errorf("%w: encode: %w", ErrInvalid, err)
	}
	if _, err := v.Parse(raw); err != nil {
		return nil, err
	}
	return raw, nil
}
