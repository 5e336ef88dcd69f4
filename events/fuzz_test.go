package events

import (
	"encoding/json"
	"sort"
	"testing"
)

// seedEnvelope is a valid envelope around data of type typ.
func seedEnvelope(typ string, data []byte) []byte {
	m := map[string]any{
		"specversion": "1.0", "id": "e1", "source": "s", "type": typ, "schemaversion": 1,
		"subject": "x/y", "time": "2026-01-01T00:00:00Z", "datacontenttype": "application/json",
		"dataschema": "x", "actor": "admin", "correlationid": "c", "causationid": "k",
		"data": json.RawMessage(data),
	}
	b, _ := json.Marshal(m)
	return b
}

// FuzzEnvelope: no input panics the decoder, the fast envelope check is
// never more lenient than the schema, and what Parse accepts decodes and
// re-encodes to something Parse accepts again.
func FuzzEnvelope(f *testing.F) {
	v, err := DefaultValidator()
	if err != nil {
		f.Fatal(err)
	}
	f.Add(seedEnvelope(TypeUserAgentGranted, []byte(`{"user":"u","agent":"a"}`)))
	f.Add(seedEnvelope(TypeFragmentWritten, []byte(`{}`)))
	f.Add([]byte(`{"specversion":"1.0"}`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		_, fastErr := decodeEnvelope(raw)
		if fastErr == nil {
			if err := v.EnvelopeSchemaCheck(raw); err != nil {
				t.Fatalf("fast check accepts what the schema rejects: %v", err)
			}
		}
		e, err := v.Parse(raw)
		if err != nil {
			return
		}
		if _, err := e.Decode(); err != nil {
			t.Fatalf("Parse accepted an event Decode refuses: %v", err)
		}
		again, err := v.Marshal(e)
		if err != nil {
			t.Fatalf("re-encoding an accepted event: %v", err)
		}
		if _, err := v.Parse(again); err != nil {
			t.Fatalf("the re-encoded event is refused: %v", err)
		}
	})
}

// FuzzPayload: for every event type, data the schema accepts decodes into
// the type's payload, and that payload encodes to data the schema accepts
// (the Go type and the schema agree).
func FuzzPayload(f *testing.F) {
	v, err := DefaultValidator()
	if err != nil {
		f.Fatal(err)
	}
	types := Types()
	sort.Strings(types)
	for i, typ := range types {
		zero, _ := json.Marshal(current[typ].new())
		f.Add(uint8(i), zero)
		f.Add(uint8(i), []byte(`{}`))
	}
	f.Fuzz(func(t *testing.T, which uint8, data []byte) {
		typ := types[int(which)%len(types)]
		e, err := v.Parse(seedEnvelope(typ, data))
		if err != nil {
			return
		}
		p, err := e.Decode()
		if err != nil {
			t.Fatalf("%s: schema-valid data does not decode: %v", typ, err)
		}
		out, err := New(Meta{Source: "fuzz", Actor: "admin"}, p)
		if err != nil {
			t.Fatalf("%s: %v", typ, err)
		}
		if _, err := v.Marshal(out); err != nil {
			t.Fatalf("%s: decoded payload re-encodes to invalid data: %v", typ, err)
		}
	})
}
