package events

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// wireEnvelope is the envelope as decoded from the log. It is decoded with
// go-json-experiment because that decoder matches member names exactly and
// rejects unknown and duplicate members in one pass, which is what the
// envelope schema (additionalProperties: false) says, at a fraction of the
// cost of a generic schema walk. TestEnvelopeCheckAgreesWithSchema holds the
// two to the same verdicts.
type wireEnvelope struct {
	SpecVersion     string         `json:"specversion"`
	ID              string         `json:"id"`
	Source          string         `json:"source"`
	Type            string         `json:"type"`
	SchemaVersion   int            `json:"schemaversion"`
	Subject         string         `json:"subject"`
	Time            time.Time      `json:"time"`
	DataContentType string         `json:"datacontenttype"`
	DataSchema      jsontext.Value `json:"dataschema"`
	Actor           string         `json:"actor"`
	CorrelationID   jsontext.Value `json:"correlationid"`
	CausationID     jsontext.Value `json:"causationid"`
	Data            jsontext.Value `json:"data"`
}

// validType reports whether t matches ^cmem\.[a-z_]+(\.[a-z_]+)+$, the
// envelope schema's pattern for type; hand-written because it runs once per
// event on every rebuild.
func validType(t string) bool {
	rest, ok := strings.CutPrefix(t, "cmem.")
	if !ok {
		return false
	}
	parts, prev := 1, byte('.')
	for i := 0; i < len(rest); i++ {
		c := rest[i]
		switch {
		case c == '.':
			if prev == '.' {
				return false
			}
			parts++
		case (c < 'a' || c > 'z') && c != '_':
			return false
		}
		prev = c
	}
	return parts >= 2 && prev != '.'
}

// decodeEnvelope decodes and checks the envelope of raw; the data member is
// returned undecoded.
func decodeEnvelope(raw []byte) (Envelope, error) {
	if e, ok := fastEnvelope(raw); ok {
		return e, nil
	}
	return genericEnvelope(raw)
}

// genericEnvelope is decodeEnvelope for any input: the reference that
// fastEnvelope is held to, and the one that says what is wrong.
func genericEnvelope(raw []byte) (Envelope, error) {
	var w wireEnvelope
	if err := jsonv2.Unmarshal(raw, &w, jsonv2.RejectUnknownMembers(true)); err != nil {
		var syn *jsontext.SyntacticError
		if errors.As(err, &syn) {
			return Envelope{}, fmt.Errorf("%w: not JSON: %w", ErrInvalid, err)
		}
		return Envelope{}, fmt.Errorf("%w: envelope: %w", ErrInvalid, err)
	}
	var opt [3]string
	var errs []error
	for i, f := range []struct {
		name string
		v    jsontext.Value
	}{{"dataschema", w.DataSchema}, {"correlationid", w.CorrelationID}, {"causationid", w.CausationID}} {
		var err error
		if opt[i], err = optionalString(f.name, f.v); err != nil {
			errs = append(errs, err)
		}
	}
	if err := errors.Join(append(errs, w.check(opt[1], opt[2]))...); err != nil {
		return Envelope{}, fmt.Errorf("%w: envelope: %w", ErrInvalid, err)
	}
	e := Envelope{
		SpecVersion: w.SpecVersion, ID: w.ID, Source: w.Source, Type: w.Type, SchemaVersion: w.SchemaVersion,
		Subject: w.Subject, Time: w.Time, DataContentType: w.DataContentType, Actor: w.Actor,
		Data: json.RawMessage(w.Data),
	}
	e.DataSchema, e.CorrelationID, e.CausationID = opt[0], opt[1], opt[2]
	return e, nil
}

// check mirrors schemas/envelope.v1.json rule by rule.
func (w *wireEnvelope) check(correlationID, causationID string) error {
	var errs []error
	bounded := func(name, v string, lo, hi int) {
		if len(v) < lo || len(v) > hi {
			errs = append(errs, fmt.Errorf("/%s: length %d outside %d..%d", name, len(v), lo, hi))
		}
	}
	if w.SpecVersion != SpecVersion {
		errs = append(errs, fmt.Errorf("/specversion: want %q", SpecVersion))
	}
	bounded("id", w.ID, 1, 128)
	bounded("source", w.Source, 1, 256)
	if !validType(w.Type) {
		errs = append(errs, fmt.Errorf("/type: %q does not match ^cmem\\.[a-z_]+(\\.[a-z_]+)+$", w.Type))
	}
	if w.SchemaVersion < 1 {
		errs = append(errs, errors.New("/schemaversion: missing or below 1"))
	}
	bounded("subject", w.Subject, 1, 512)
	if w.Time.IsZero() {
		errs = append(errs, errors.New("/time: missing"))
	}
	if w.DataContentType != "application/json" {
		errs = append(errs, errors.New(`/datacontenttype: want "application/json"`))
	}
	bounded("actor", w.Actor, 1, 128)
	bounded("correlationid", correlationID, 0, 128)
	bounded("causationid", causationID, 0, 128)
	if w.Data.Kind() != '{' {
		errs = append(errs, errors.New("/data: missing or not an object"))
	}
	return errors.Join(errs...)
}

// optionalString decodes an optional string member: absent is "", present
// must be a JSON string (null is not).
func optionalString(name string, v jsontext.Value) (string, error) {
	if len(v) == 0 {
		return "", nil
	}
	if v.Kind() == '"' && bytes.IndexByte(v, '\\') < 0 {
		return string(v[1 : len(v)-1]), nil // checked by the decoder, nothing to unescape
	}
	var out string
	if v.Kind() != '"' || jsonv2.Unmarshal(v, &out) != nil {
		return "", fmt.Errorf("/%s: want a string", name)
	}
	return out, nil
}
