package events

import (
	"encoding/json"
	"strings"
	"testing"
)

// The fast envelope check and the envelope JSON Schema must agree. Mutations
// of a valid envelope are judged by both; the fast check may be stricter
// only where the list below says so, and never more lenient.
func TestEnvelopeCheckAgreesWithSchema(t *testing.T) {
	v, err := DefaultValidator()
	if err != nil {
		t.Fatal(err)
	}
	base := map[string]any{
		"specversion": "1.0", "id": "e1", "source": "s", "type": TypeUserAgentGranted, "schemaversion": 1,
		"subject": "grants/user-agent/u/a", "time": "2026-01-01T00:00:00Z", "datacontenttype": "application/json",
		"dataschema": "x", "actor": "admin", "correlationid": "c", "causationid": "k",
		"data": map[string]any{"user": "u", "agent": "a"},
	}
	values := []any{nil, 0, 1, 1.5, -1, "", "x", "1.0", strings.Repeat("x", 129), strings.Repeat("y", 600), true, []any{}, map[string]any{},
		"2026-01-01", "2026-01-01T00:00:00", "2026-01-01T00:00:00+01:00", "2026-01-01T00:00:00.123456789Z", "cmem.a", "cmem.a.b", "CMEM.a.b", "application/json"}
	var docs [][]byte
	for k := range base {
		m := cloneMap(base)
		delete(m, k)
		docs = append(docs, mustMarshal(t, m))
		m = cloneMap(base)
		m[strings.ToUpper(k[:1])+k[1:]] = m[k]
		delete(m, k)
		docs = append(docs, mustMarshal(t, m))
		for _, val := range values {
			m := cloneMap(base)
			m[k] = val
			docs = append(docs, mustMarshal(t, m))
		}
	}
	m := cloneMap(base)
	m["extra"] = 1
	docs = append(docs, mustMarshal(t, m), mustMarshal(t, base), []byte(`[]`), []byte(`null`), []byte(`"x"`))

	agreed := 0
	for _, raw := range docs {
		_, fastErr := decodeEnvelope(raw)
		schemaErr := v.EnvelopeSchemaCheck(raw)
		switch {
		case (fastErr == nil) == (schemaErr == nil):
			agreed++
		case fastErr == nil:
			t.Errorf("fast check accepts what the schema rejects: %s\nschema: %v", raw, schemaErr)
		default:
			t.Errorf("fast check rejects what the schema accepts: %s\nfast: %v", raw, fastErr)
		}
	}
	if agreed != len(docs) || agreed < 300 {
		t.Fatalf("agreed on %d of %d documents", agreed, len(docs))
	}
}

// Where the fast check is knowingly stricter than the schema.
func TestEnvelopeCheckIsStricterOnDuplicateMembers(t *testing.T) {
	raw := []byte(`{"specversion":"1.0","id":"a","id":"b","source":"s","type":"cmem.a.b","schemaversion":1,"subject":"s","time":"2026-01-01T00:00:00Z","datacontenttype":"application/json","actor":"a","data":{}}`)
	if _, err := decodeEnvelope(raw); err == nil {
		t.Fatal("duplicate member accepted")
	}
}

func cloneMap(m map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

func mustMarshal(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestRecordDecodeUsesAttachedPayload: a record carrying a payload hands
// that value out; one without decodes its data.
func TestRecordDecodeUsesAttachedPayload(t *testing.T) {
	e, err := New(Meta{Source: "test", Actor: "admin"}, &UserAgentGranted{User: "u", Agent: "a"})
	if err != nil {
		t.Fatal(err)
	}
	plain := Record{Envelope: e, Revision: 1}
	p, err := plain.Decode()
	if err != nil {
		t.Fatal(err)
	}
	if g, ok := p.(*UserAgentGranted); !ok || g.User != "u" || g.Agent != "a" {
		t.Fatalf("decoded %+v", p)
	}
	shared := &UserAgentGranted{User: "u", Agent: "a"}
	withP := plain.WithPayload(shared)
	for range 2 {
		got, err := withP.Decode()
		if err != nil || got != Payload(shared) {
			t.Fatalf("Decode = %p, %v; want the attached %p", got, err, shared)
		}
	}
	if got, _ := plain.Decode(); got == Payload(shared) {
		t.Fatal("WithPayload changed the record it was called on")
	}
}
