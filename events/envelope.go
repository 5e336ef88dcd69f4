package events

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/google/uuid"
)

// SpecVersion is the CloudEvents version of the envelope.
const SpecVersion = "1.0"

// Envelope is the one shape every event has on the log. Field names are the
// CloudEvents attribute names, so generic CloudEvents tooling can read the
// stream; the revision is not part of it because the log assigns it.
type Envelope struct {
	SpecVersion     string          `json:"specversion"`
	ID              string          `json:"id"`
	Source          string          `json:"source"`
	Type            string          `json:"type"`
	SchemaVersion   int             `json:"schemaversion"`
	Subject         string          `json:"subject"`
	Time            time.Time       `json:"time"`
	DataContentType string          `json:"datacontenttype"`
	DataSchema      string          `json:"dataschema,omitempty"`
	Actor           string          `json:"actor"`
	CorrelationID   string          `json:"correlationid,omitempty"`
	CausationID     string          `json:"causationid,omitempty"`
	Data            json.RawMessage `json:"data"`

	// vouched is what New vouched for (see selfChecking); Marshal trusts
	// Data only while it is that very slice under that type and version.
	vouched vouch
}

// Meta carries the attributes of an event that the caller, not the payload,
// decides.
type Meta struct {
	Source        string // producing component, e.g. "cmem/gateway"
	Actor         string // identity that caused the event
	CorrelationID string // shared by every event of one request or query
	CausationID   string // id of the event that caused this one, if any
	Time          time.Time
	// ID, when set, is the event id instead of a fresh UUIDv7. Workers that
	// may run a step twice (a redelivery after a crash) derive it from the
	// step, so that the log's deduplication stores the step's events once.
	ID string
}

// StepID derives a stable event id (a name-based UUID) from the parts that
// identify one step, e.g. (query id, round, "responded").
func StepID(parts ...string) string {
	return uuid.NewSHA1(stepNamespace, []byte(strings.Join(parts, "\x00"))).String()
}

var stepNamespace = uuid.MustParse("6f0c3c5e-8a53-4c61-9b8e-2b1d3c6d7e01")

// Record is an event as read back from the log: the envelope and the log
// revision (stream sequence) it was stored at.
type Record struct {
	Envelope
	Revision uint64
	// payload is Data already decoded (see WithPayload), shared by every
	// reader of the record; nil means Decode decodes Data itself.
	payload Payload
}

// WithPayload returns r carrying p, the decoded form of r.Data, so that
// Decode hands every projection the same value instead of each parsing the
// same bytes again. A consumer that feeds several projections decodes once
// per event and attaches the result here. p is shared: whoever calls
// Decode on such a record treats the payload as read-only.
func (r Record) WithPayload(p Payload) Record {
	r.payload = p
	return r
}

// Decode returns the typed payload of r: the one attached with
// WithPayload when there is one (shared, read-only), else a fresh decode
// of Data as Envelope.Decode does.
func (r Record) Decode() (Payload, error) {
	if r.payload != nil {
		return r.payload, nil
	}
	return r.Envelope.Decode()
}

// New wraps payload in an envelope with a fresh time-ordered id. A zero
// m.Time means now; a missing correlation id starts a new correlation.
func New(m Meta, payload Payload) (Envelope, error) {
	spec, ok := specFor(payload)
	if !ok {
		return Envelope{}, fmt.Errorf("%w: payload %T", ErrUnknownType, payload)
	}
	data, vouched, err := encodeData(payload)
	if err != nil {
		return Envelope{}, fmt.Errorf("events: encode %s: %w", spec.Type, err)
	}
	id := m.ID
	if id == "" {
		u, err := uuid.NewV7()
		if err != nil {
			return Envelope{}, fmt.Errorf("events: new id: %w", err)
		}
		id = u.String()
	}
	t := m.Time
	if t.IsZero() {
		t = time.Now()
	}
	corr := m.CorrelationID
	if corr == "" {
		corr = id
	}
	e := Envelope{
		SpecVersion:     SpecVersion,
		ID:              id,
		Source:          m.Source,
		Type:            spec.Type,
		SchemaVersion:   spec.Version,
		Subject:         payload.EventSubject(),
		Time:            t.UTC(),
		DataContentType: "application/json",
		DataSchema:      spec.schemaID(),
		Actor:           m.Actor,
		CorrelationID:   corr,
		CausationID:     m.CausationID,
		Data:            data,
	}
	if vouched {
		e.vouched = vouch{data: data, key: specKey{spec.Type, spec.Version}}
	}
	return e, nil
}

// Decode returns the typed payload of e. The payload must already have passed
// Validator.Parse; Decode only maps JSON onto the Go type.
func (e Envelope) Decode() (Payload, error) {
	spec, ok := lookup(e.Type, e.SchemaVersion)
	if !ok {
		return nil, fmt.Errorf("%w: %s v%d", ErrUnknownType, e.Type, e.SchemaVersion)
	}
	p := spec.new()
	if f, ok := p.(fastMember); ok {
		if fastDecode(e.Data, f) {
			return p, nil
		}
		p = spec.new() // what the fast path left half-filled
	}
	if err := jsonv2.Unmarshal(e.Data, p); err != nil {
		return nil, fmt.Errorf("%w: %s data: %w", ErrInvalid, e.Type, err)
	}
	return p, nil
}
